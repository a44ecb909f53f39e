// Interruption latency: how soon after `session.interrupt()` the cancel and the truncate are written to the socket.
// Not a test: run `pnpm bench` (it builds first).
//
// The replay server (its own process, BENCH_MODE=interrupt) answers each response.create with a fresh response whose
// 100 ms audio deltas arrive one every 5 ms, and ends it `cancelled` on response.cancel. The client (a fresh process)
// runs BENCH_INTERRUPT_TRIALS trials (default 200): ask for a reply, and after its third audio delta (in a later
// event-loop turn) call `interrupt()`. A WebSocket subclass records when `response.cancel` and
// `conversation.item.truncate` are handed to the socket. Reported: p50/p99 of call → cancel and call → truncate, and
// how many truncates were written before `interrupt()` returned (the same turn as the call). The baseline is the
// floor of the same measurement: a bare `ws` client that writes both frames itself when told to interrupt.
import { runClientProcess, startReplayServer } from './processes.mjs';

const TRIALS = Number(process.env.BENCH_INTERRUPT_TRIALS ?? 200);
const RUN_TIMEOUT_MS = 120_000;

const { server, url } = await startReplayServer({ BENCH_MODE: 'interrupt', BENCH_AUDIO_DELTAS: '1' });

function runClient(kind) {
  return runClientProcess('./interruption-latency-client.mjs', [kind, url, String(TRIALS)], {
    label: `Client "${kind}"`,
    timeoutMs: RUN_TIMEOUT_MS,
  });
}

try {
  const rows = [];
  for (const kind of ['floor', 'parley-session']) {
    const r = await runClient(kind);
    rows.push({
      client: kind,
      'cancel p50 µs': r.cancel.p50.toFixed(0),
      'cancel p99 µs': r.cancel.p99.toFixed(0),
      'truncate p50 µs': r.truncate.p50.toFixed(0),
      'truncate p99 µs': r.truncate.p99.toFixed(0),
      'both in the call': `${r.sameTurn}/${r.trials}`,
    });
  }
  console.log(`\nInterruption latency: interrupt() → frames handed to the socket, ${TRIALS} trials`);
  console.table(rows);
} finally {
  server.kill();
}
