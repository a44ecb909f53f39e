// Idle memory: heap per connected, idle session. Not a test: run `pnpm bench` (it builds first).
//
// The replay server (its own process) answers each connection with session.created. Each client run is a fresh
// process (--expose-gc) that opens one session to warm up, then BENCH_IDLE_SESSIONS (default 300) more, and reports
// (heapUsed after − before, both after full GCs) / sessions. Clients alternate for BENCH_IDLE_ROUNDS rounds
// (default 3); the table shows medians, as ratios to a bare `ws` socket (the baseline) in the same run:
//   socket:         a bare `ws` client that parsed session.created;
//   parley-session: RealtimeSession on OpenAIRealtimeModel with an `audio` listener;
//   agents:         @openai/agents-realtime RealtimeSession on OpenAIRealtimeWebSocket (if installed).

import { createRequire } from 'node:module';
import { median } from './bench-audio.mjs';
import { runClientProcess, startReplayServer } from './processes.mjs';

const SESSIONS = Number(process.env.BENCH_IDLE_SESSIONS ?? 300);
const ROUNDS = Number(process.env.BENCH_IDLE_ROUNDS ?? 3);
const RUN_TIMEOUT_MS = 120_000;

const hasAgents = (() => {
  try {
    createRequire(import.meta.url).resolve('@openai/agents-realtime');
    return true;
  } catch {
    return false;
  }
})();
const CLIENTS = ['socket', 'parley-session', ...(hasAgents ? ['agents'] : [])];

const { server, url } = await startReplayServer({ BENCH_AUDIO_DELTAS: '1' });

function runClient(kind) {
  return runClientProcess('./idle-memory-client.mjs', [kind, url, String(SESSIONS)], {
    label: `Client "${kind}"`,
    timeoutMs: RUN_TIMEOUT_MS,
    execArgv: ['--expose-gc'],
    env: { OPENAI_AGENTS_DISABLE_TRACING: '1' },
  });
}

try {
  const samples = new Map(CLIENTS.map((kind) => [kind, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of CLIENTS) {
      const { bytesPerSession } = await runClient(kind);
      samples.get(kind).push(bytesPerSession);
      process.stderr.write(
        `idle round ${round}/${ROUNDS} ${kind}: ${(bytesPerSession / 1024).toFixed(1)} KiB\n`,
      );
    }
  }
  const socket = median(samples.get('socket'));
  const agents = hasAgents ? median(samples.get('agents')) : undefined;
  console.log(
    `\nIdle memory: heap per connected idle session, ${SESSIONS} sessions, median of ${ROUNDS} rounds`,
  );
  console.table(
    CLIENTS.map((kind) => {
      const perSession = median(samples.get(kind));
      return {
        client: kind,
        'KiB / session': (perSession / 1024).toFixed(1),
        'vs bare socket': `${(perSession / socket).toFixed(2)}×`,
        ...(agents !== undefined && { 'vs agents-realtime': `${(perSession / agents).toFixed(2)}×` }),
      };
    }),
  );
} finally {
  server.kill();
}
