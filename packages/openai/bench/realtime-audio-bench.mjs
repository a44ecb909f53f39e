// Realtime audio hot path: client CPU per audio event. Not a test: run `pnpm bench` (it builds first).
//
// A replay server (its own process, so its CPU is not counted) answers one response.create with one long response:
// BENCH_AUDIO_DELTAS (default 20,000) audio deltas of 100 ms (PCM16 24 kHz: 6,400 base64 characters, ~6.5 KB
// frames) with a transcript delta each, precomputed and written as fast as the socket drains. Each client run is a
// fresh process that measures its own CPU time (process.cpuUsage: user + system, all threads) from the first audio
// callback to the last, divided by the audio events in between; each collects its garbage once right before it asks
// for the response. Clients alternate (a b c b' a b c b' …) for
// BENCH_ROUNDS rounds (default 7); the table shows medians:
//   (a)  floor: a bare `ws` client that only does JSON.parse and base64 decode of each frame;
//   (a') the floor in a process that imported @parley/core and @parley/openai: what the larger heap costs the same
//        work (a Parley client carries that heap too);
//   (b)  Parley: RealtimeSession on OpenAIRealtimeModel, with an `audio` listener;
//   (c)  @openai/agents-realtime: RealtimeSession on OpenAIRealtimeWebSocket, with an `audio` listener;
//   (b') Parley's OpenAIRealtimeConnection alone (no session), to tell the adapter's share from the session's.
// BENCH_CLIENTS (e.g. `floor,parley-session`) picks clients. A paired run against another build: BENCH_COMPARE_CORE
// and BENCH_COMPARE_OPENAI (paths to that build's dist/index.js files, its `@parley/core` imports pointed at the
// former) add (b) and (b') on that build, alternating with the others in the same rounds.

import os from 'node:os';
import { median } from './bench-audio.mjs';
import { runClientProcess, startReplayServer } from './processes.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const RUN_TIMEOUT_MS = 300_000;
const COMPARE = process.env.BENCH_COMPARE_CORE && process.env.BENCH_COMPARE_OPENAI;
const compareEnv = {
  BENCH_CORE_MODULE: process.env.BENCH_COMPARE_CORE,
  BENCH_OPENAI_MODULE: process.env.BENCH_COMPARE_OPENAI,
};
const picked = process.env.BENCH_CLIENTS?.split(',');
const CLIENTS = [
  { id: 'floor', kind: 'floor', label: '(a) floor: ws + JSON.parse + base64 decode' },
  { id: 'floor-loaded', kind: 'floor-loaded', label: "(a') floor, Parley's modules loaded" },
  { id: 'parley-session', kind: 'parley-session', label: '(b) Parley RealtimeSession + OpenAIRealtimeModel' },
  { id: 'agents', kind: 'agents', label: '(c) @openai/agents-realtime RealtimeSession' },
  { id: 'parley-connection', kind: 'parley-connection', label: "(b') Parley OpenAIRealtimeConnection alone" },
  ...(COMPARE
    ? [
        {
          id: 'compare-session',
          kind: 'parley-session',
          env: compareEnv,
          label: '(b) on the compared build',
        },
        {
          id: 'compare-connection',
          kind: 'parley-connection',
          env: compareEnv,
          label: "(b') on the compared build",
        },
      ]
    : []),
].filter((client) => !picked || picked.includes(client.id) || picked.includes(client.kind));

const {
  server,
  info: { audioDeltas, bytesPerDelta },
  url,
} = await startReplayServer();

function runClient({ kind, env }) {
  return runClientProcess('./bench-client.mjs', [kind, url, String(audioDeltas), String(bytesPerDelta)], {
    label: `Client "${kind}"`,
    timeoutMs: RUN_TIMEOUT_MS,
    execArgv: ['--expose-gc', ...(process.env.BENCH_CLIENT_FLAGS?.split(' ').filter(Boolean) ?? [])],
    env: { OPENAI_AGENTS_DISABLE_TRACING: '1', ...env },
  });
}

try {
  const samples = new Map(CLIENTS.map((client) => [client.id, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const client of CLIENTS) {
      const result = await runClient(client);
      samples.get(client.id).push(result);
      process.stderr.write(
        `round ${round}/${ROUNDS} ${client.id}: ${result.microsPerEvent.toFixed(2)} µs/event ` +
          `(${(result.wallMs / 1000).toFixed(2)} s)\n`,
      );
    }
  }
  const floorRuns = samples.get('floor')?.map((s) => s.microsPerEvent);
  if (!floorRuns) throw new Error('BENCH_CLIENTS must include the floor.');
  const floorMedian = median(floorRuns);
  const rows = CLIENTS.map(({ id, label }) => {
    const runs = samples.get(id).map((s) => s.microsPerEvent);
    const perEvent = median(runs);
    // Each round's ratio to that round's floor: the "in every round" figure.
    const roundRatios = runs.map((value, round) => value / floorRuns[round]);
    return {
      client: label,
      'median µs CPU / audio event': perEvent.toFixed(2),
      'min–max': `${Math.min(...runs).toFixed(1)}–${Math.max(...runs).toFixed(1)}`,
      'ratio to floor': `${(perEvent / floorMedian).toFixed(2)}×`,
      'per-round ratio min–max': `${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}×`,
    };
  });
  console.log(
    `Realtime audio: client CPU per audio event, socket to the app's audio callback (${audioDeltas.toLocaleString('en-US')} ` +
      `100 ms deltas + transcript deltas per run, median of ${ROUNDS} alternating rounds; Node ${process.version}, ` +
      `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores)`,
  );
  console.table(rows);
  const medianOf = (id) =>
    samples.has(id) ? median(samples.get(id).map((s) => s.microsPerEvent)) : undefined;
  const parley = medianOf('parley-session');
  const agents = medianOf('agents');
  const loaded = medianOf('floor-loaded');
  if (parley !== undefined) {
    console.log(
      `Parley RealtimeSession: ${(parley / floorMedian).toFixed(2)}× the floor (target ≤ 0.90× in every round)` +
        (loaded === undefined ? '' : `, ${(parley / loaded).toFixed(2)}× the floor with Parley loaded`) +
        (agents === undefined ? '.' : `, ${(parley / agents).toFixed(2)}× @openai/agents-realtime.`),
    );
  }
  for (const [now, before] of [
    ['parley-session', 'compare-session'],
    ['parley-connection', 'compare-connection'],
  ]) {
    if (!samples.has(now) || !samples.has(before)) continue;
    const pairs = samples
      .get(now)
      .map((s, round) => s.microsPerEvent / samples.get(before)[round].microsPerEvent);
    console.log(
      `${now} / the compared build, per round: ${pairs.map((r) => r.toFixed(3)).join(' ')} (median ${median(pairs).toFixed(3)}).`,
    );
  }
} finally {
  server.send({ type: 'stop' });
}
