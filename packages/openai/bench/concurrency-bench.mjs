// Concurrency: N sessions in one process, each fed real-time-paced audio. Not a test: run `pnpm bench`.
//
// The replay server (its own process, BENCH_MODE=paced) answers each response.create with a response whose deltas it
// writes on a shared clock: at start + k × 100 ms, for every streaming connection, a transcript delta and a 100 ms
// audio delta (PCM16 24 kHz), BENCH_PACED_TICKS times (default 30: 3 s). Each client run is a fresh process that
// opens N sessions (each asks for a reply), then measures, for every audio event its `audio` listener gets, the delay
// from the tick it was written at (the first two ticks warm up and are not counted), and counts Mark-Compact GCs during
// the stream (each client collects its garbage once before the stream starts, so the heap the connection phase left
// does not decide whether a collection falls inside the stream). BENCH_CLIENT_FLAGS passes Node flags to the clients
// (`--trace-gc`). For each N in BENCH_CONCURRENCY
// (default 100,500,1000) and each of BENCH_CONCURRENCY_ROUNDS rounds (default 1), the floor (bare `ws` +
// JSON.parse + base64 decode) and Parley alternate. Reported: p99 and max delay per N, GCs, missing events.
import { runClientProcess, startReplayServer } from './processes.mjs';

const SIZES = (process.env.BENCH_CONCURRENCY ?? '100,500,1000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_CONCURRENCY_ROUNDS ?? 1);
const TICKS = Number(process.env.BENCH_PACED_TICKS ?? 30);
const CLIENTS = ['floor', 'parley-session'];

const { server, url } = await startReplayServer({ BENCH_MODE: 'paced', BENCH_AUDIO_DELTAS: '1' });

function runClient(kind, sessions) {
  return runClientProcess('./concurrency-client.mjs', [kind, url, String(sessions), String(TICKS)], {
    label: `Client "${kind}" with ${sessions} sessions`,
    timeoutMs: 60_000 + sessions * 50 + TICKS * 100,
    execArgv: ['--expose-gc', ...(process.env.BENCH_CLIENT_FLAGS?.split(' ').filter(Boolean) ?? [])],
    onMessage: (message, child) => {
      if (message.type !== 'ready') return false;
      // Everyone connected and asked: the stream starts on a shared clock (epoch ms) a moment later.
      const at = Date.now() + 300;
      server.send({ type: 'start', at, ticks: TICKS });
      child.send({ type: 'start', at });
      return true;
    },
  });
}

try {
  const rows = [];
  for (const sessions of SIZES) {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of CLIENTS) {
        const r = await runClient(kind, sessions);
        process.stderr.write(
          `N=${sessions} round ${round} ${kind}: p99 ${r.p99.toFixed(1)} ms (p50 ${r.p50.toFixed(1)})\n`,
        );
        rows.push({
          N: sessions,
          round,
          client: kind,
          'p50 ms': r.p50.toFixed(1),
          'p99 ms': r.p99.toFixed(1),
          'max ms': r.max.toFixed(1),
          'Mark-Compact GCs': r.majorGcs,
          missing: r.missing,
          'under 20 ms': r.p99 < 20 && r.missing === 0 ? 'yes' : 'no',
        });
      }
    }
  }
  console.log(
    `\nConcurrency: audio delivery delay with N paced sessions in one process (${TICKS} ticks of 100 ms)`,
  );
  console.table(rows);
} finally {
  server.kill();
}
