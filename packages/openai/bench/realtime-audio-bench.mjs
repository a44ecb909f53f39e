// Realtime audio hot path: client CPU per audio event. Not a test: run `pnpm bench` (it builds first).
//
// A replay server (its own process, so its CPU is not counted) answers one response.create with one long response:
// BENCH_AUDIO_DELTAS (default 20,000) audio deltas of 100 ms (PCM16 24 kHz: 6,400 base64 characters, ~6.5 KB
// frames) with a transcript delta each, precomputed and written as fast as the socket drains. Each client run is a
// fresh process that measures its own CPU time (process.cpuUsage: user + system, all threads) from the first audio
// callback to the last, divided by the audio events in between. Clients alternate (a b c b' a b c b' …) for
// BENCH_ROUNDS rounds (default 7); the table shows medians:
//   (a)  floor: a bare `ws` client that only does JSON.parse and base64 decode of each frame;
//   (b)  Parley: RealtimeSession on OpenAIRealtimeModel, with an `audio` listener;
//   (c)  @openai/agents-realtime: RealtimeSession on OpenAIRealtimeWebSocket, with an `audio` listener;
//   (b') Parley's OpenAIRealtimeConnection alone (no session), to tell the adapter's share from the session's.
import { fork } from 'node:child_process';
import os from 'node:os';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const RUN_TIMEOUT_MS = 300_000;
const CLIENTS = [
  { kind: 'floor', label: '(a) floor: ws + JSON.parse + base64 decode' },
  { kind: 'parley-session', label: '(b) Parley RealtimeSession + OpenAIRealtimeModel' },
  { kind: 'agents', label: '(c) @openai/agents-realtime RealtimeSession' },
  { kind: 'parley-connection', label: "(b') Parley OpenAIRealtimeConnection alone" },
];

const here = (file) => new URL(file, import.meta.url).pathname;

const server = fork(here('./replay-server.mjs'), [], { env: { ...process.env } });
const { port, audioDeltas, bytesPerDelta } = await new Promise((resolve, reject) => {
  server.once('message', resolve);
  server.once('exit', (code) => reject(new Error(`The replay server exited (${code}) before listening.`)));
});
const url = `ws://127.0.0.1:${port}/v1/realtime?model=gpt-realtime`;

function runClient(kind) {
  return new Promise((resolve, reject) => {
    const child = fork(here('./bench-client.mjs'), [kind, url, String(audioDeltas), String(bytesPerDelta)], {
      execArgv: ['--expose-gc'],
      env: { ...process.env, OPENAI_AGENTS_DISABLE_TRACING: '1' },
    });
    let result;
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('message', (message) => {
      result = message;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (result && code === 0) resolve(result);
      else reject(new Error(`Client "${kind}" failed (exit ${code ?? signal}).`));
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  const samples = new Map(CLIENTS.map((client) => [client.kind, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const client of CLIENTS) {
      const result = await runClient(client.kind);
      samples.get(client.kind).push(result);
      process.stderr.write(
        `round ${round}/${ROUNDS} ${client.kind}: ${result.microsPerEvent.toFixed(2)} µs/event ` +
          `(${(result.wallMs / 1000).toFixed(2)} s)\n`,
      );
    }
  }
  const floorMedian = median(samples.get('floor').map((s) => s.microsPerEvent));
  const rows = CLIENTS.map(({ kind, label }) => {
    const runs = samples.get(kind);
    const perEvent = median(runs.map((s) => s.microsPerEvent));
    return {
      client: label,
      'median µs CPU / audio event': perEvent.toFixed(2),
      'min–max': `${Math.min(...runs.map((s) => s.microsPerEvent)).toFixed(1)}–${Math.max(...runs.map((s) => s.microsPerEvent)).toFixed(1)}`,
      'ratio to floor': `${(perEvent / floorMedian).toFixed(2)}×`,
    };
  });
  console.log(
    `Realtime audio: client CPU per audio event, socket to the app's audio callback (${audioDeltas.toLocaleString('en-US')} ` +
      `100 ms deltas + transcript deltas per run, median of ${ROUNDS} alternating rounds; Node ${process.version}, ` +
      `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores)`,
  );
  console.table(rows);
  const parley = median(samples.get('parley-session').map((s) => s.microsPerEvent));
  const agents = median(samples.get('agents').map((s) => s.microsPerEvent));
  console.log(
    `Parley RealtimeSession: ${(parley / floorMedian).toFixed(2)}× the floor (target ≤ 1.00×), ` +
      `${(parley / agents).toFixed(2)}× @openai/agents-realtime (target < 0.50×).`,
  );
} finally {
  server.send({ type: 'stop' });
}
