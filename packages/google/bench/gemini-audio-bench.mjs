// Gemini Live audio hot path: client CPU per audio event, socket to the app's audio callback. Not a test: run
// `pnpm bench` (it builds first). Each figure is a ratio to a floor measured in the same run, alternating with the
// OpenAI Realtime path so the two are compared on the same machine load: each path to its own protocol's floor, and
// both to the same floor (a), so the Gemini path's cost per delta is set against the OpenAI adapter's directly:
//   (a)  OpenAI floor: a bare `ws` client that parses each Realtime frame and decodes its audio;
//   (b)  Parley RealtimeSession on OpenAIRealtimeModel;
//   (g)  Gemini floor: a bare `ws` client that parses each Gemini Live frame and decodes its audio;
//   (h)  Parley RealtimeSession on GeminiLiveModel.
// Both replay servers (each in its own process) send BENCH_AUDIO_DELTAS (default 20,000) 100 ms PCM16 24 kHz deltas,
// each with a transcript fragment, as fast as the socket drains. BENCH_ROUNDS rounds (default 7); medians shown.
import { fork } from 'node:child_process';
import os from 'node:os';
import { median } from '../../openai/bench/bench-audio.mjs';
import { runClientProcess, startReplayServer } from '../../openai/bench/processes.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const RUN_TIMEOUT_MS = 300_000;
const here = (file) => new URL(file, import.meta.url).pathname;

const openai = await startReplayServer();
const geminiServer = fork(here('./gemini-replay-server.mjs'), [], { env: process.env });
const gemini = await new Promise((resolve, reject) => {
  geminiServer.once('message', resolve);
  geminiServer.once('exit', (code) =>
    reject(new Error(`The Gemini replay server exited (${code}) before listening.`)),
  );
});
const geminiUrl = `ws://127.0.0.1:${gemini.port}`;

const CLIENTS = [
  {
    id: 'floor',
    label: '(a) OpenAI floor: ws + JSON.parse + base64 decode',
    script: './bench-client.mjs',
    url: openai.url,
    info: openai.info,
  },
  {
    id: 'parley-session',
    label: '(b) Parley RealtimeSession + OpenAIRealtimeModel',
    script: './bench-client.mjs',
    url: openai.url,
    info: openai.info,
  },
  {
    id: 'gemini-floor',
    label: '(g) Gemini floor: ws + JSON.parse + base64 decode',
    script: here('./gemini-bench-client.mjs'),
    url: geminiUrl,
    info: gemini,
  },
  {
    id: 'gemini-session',
    label: '(h) Parley RealtimeSession + GeminiLiveModel',
    script: here('./gemini-bench-client.mjs'),
    url: geminiUrl,
    info: gemini,
  },
];

try {
  const samples = new Map(CLIENTS.map((client) => [client.id, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const client of CLIENTS) {
      const result = await runClientProcess(
        client.script,
        [client.id, client.url, String(client.info.audioDeltas), String(client.info.bytesPerDelta)],
        {
          label: `Client "${client.id}"`,
          timeoutMs: RUN_TIMEOUT_MS,
          execArgv: ['--expose-gc'],
          env: { OPENAI_AGENTS_DISABLE_TRACING: '1' },
        },
      );
      samples.get(client.id).push(result.microsPerEvent);
      process.stderr.write(
        `round ${round}/${ROUNDS} ${client.id}: ${result.microsPerEvent.toFixed(2)} µs/event\n`,
      );
    }
  }
  const floorOf = {
    floor: 'floor',
    'parley-session': 'floor',
    'gemini-floor': 'gemini-floor',
    'gemini-session': 'gemini-floor',
  };
  const rows = CLIENTS.map(({ id, label }) => {
    const runs = samples.get(id);
    const floors = samples.get(floorOf[id]);
    const ratios = runs.map((value, round) => value / floors[round]);
    return {
      client: label,
      'median µs CPU / audio event': median(runs).toFixed(2),
      'ratio to its floor': `${(median(runs) / median(floors)).toFixed(2)}×`,
      'ratio to (a)': `${(median(runs) / median(samples.get('floor'))).toFixed(2)}×`,
      'per-round ratio min–max': `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`,
    };
  });
  console.log(
    `Gemini Live audio: client CPU per audio event, socket to the app's audio callback (${gemini.audioDeltas.toLocaleString('en-US')} ` +
      `100 ms deltas + transcript fragments per run, median of ${ROUNDS} alternating rounds; Node ${process.version}, ` +
      `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores)`,
  );
  console.table(rows);
  const m = (id) => median(samples.get(id));
  const geminiRatio = m('gemini-session') / m('gemini-floor');
  const openaiRatio = m('parley-session') / m('floor');
  const sameFloor = (id) => m(id) / m('floor');
  console.log(
    `GeminiLiveModel: ${geminiRatio.toFixed(2)}× its floor; OpenAIRealtimeModel: ${openaiRatio.toFixed(2)}× its floor ` +
      `(Gemini path / OpenAI path, each to its floor: ${(geminiRatio / openaiRatio).toFixed(2)}×; target ≤ 1.00×).`,
  );
  console.log(
    `To the same floor (a): GeminiLiveModel ${sameFloor('gemini-session').toFixed(2)}×, OpenAIRealtimeModel ` +
      `${sameFloor('parley-session').toFixed(2)}× (Gemini path / OpenAI path per delta: ` +
      `${(sameFloor('gemini-session') / sameFloor('parley-session')).toFixed(2)}×; target ≤ 1.00×).`,
  );
} finally {
  openai.server.kill();
  geminiServer.kill();
}
