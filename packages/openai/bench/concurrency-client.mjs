// One client run of the concurrency benchmark (forked by concurrency-bench.mjs):
//   node concurrency-client.mjs <client> <url> <sessions> <ticks>
// Opens <sessions> sessions that each ask for a reply, says `ready`, and on `start` (the stream's epoch start) records
// each audio event's delay from the tick it was written at. Reports p99 / max delay, missing events, Mark-Compact GCs.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { WebSocket } from 'ws';

const [kind, url, sessionsArg, ticksArg] = process.argv.slice(2);
const SESSIONS = Number(sessionsArg);
const TICKS = Number(ticksArg);
const TICK_MS = 100;
/** The first ticks warm up the JIT in both processes; they are delivered but not counted. */
const WARMUP_TICKS = 2;
const API_KEY = 'sk-bench-not-a-real-key';
// Wall-clock ms: the one clock this process and the server (another process) share.
const epochNow = () => Date.now();

let startAt = Number.POSITIVE_INFINITY;
const received = new Uint32Array(SESSIONS);
const delays = new Float64Array(SESSIONS * TICKS);
let events = 0;
let measuredEvents = 0;
let allReceived;
const everything = new Promise((resolve) => {
  allReceived = resolve;
});

/** The app's audio callback for session `index`: the same for every client. */
function onAudio(index) {
  const k = received[index]++;
  if (k >= WARMUP_TICKS) delays[measuredEvents++] = epochNow() - (startAt + k * TICK_MS);
  if (++events === SESSIONS * TICKS) allReceived();
}

async function floorSession(index) {
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${API_KEY}` } });
  await new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString());
      if (event.type === 'response.output_audio.delta') {
        Buffer.from(event.delta, 'base64');
        onAudio(index);
      } else if (event.type === 'session.created') {
        ws.send(JSON.stringify({ type: 'response.create' }));
        resolve();
      }
    });
    ws.once('error', reject);
  });
  return async () => ws.close();
}

let parley;
async function parleySession(index) {
  parley ??= {
    ...(await import('@parley/core')),
    ...(await import('@parley/openai')),
  };
  const { Agent, RealtimeSession, OpenAIRealtimeModel } = parley;
  const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url, WebSocket });
  const session = new RealtimeSession(new Agent({ name: 'Narrator', instructions: 'Tell long stories.' }), {
    model,
  });
  session.on('audio', () => onAudio(index));
  await session.connect();
  session.generateResponse();
  return () => session.close();
}

const open = { floor: floorSession, 'parley-session': parleySession }[kind];
if (!open) throw new Error(`Unknown client "${kind}".`);

const closers = [];
for (let batch = 0; batch < SESSIONS; batch += 50) {
  const indexes = Array.from({ length: Math.min(50, SESSIONS - batch) }, (_, i) => batch + i);
  closers.push(...(await Promise.all(indexes.map((i) => open(i)))));
}
await new Promise((resolve) => setTimeout(resolve, 300));
// Both clients start the stream from a collected heap: what the connection phase allocated is not counted.
globalThis.gc?.();

let majorGcs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (
      entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR &&
      performance.timeOrigin + entry.startTime >= startAt
    )
      majorGcs++;
});
observer.observe({ entryTypes: ['gc'] });

const started = new Promise((resolve) => process.once('message', resolve));
process.send({ type: 'ready' });
startAt = (await started).at;
await Promise.race([
  everything,
  new Promise((resolve) => setTimeout(resolve, startAt - epochNow() + TICKS * TICK_MS + 5_000)),
]);
observer.disconnect();

const measured = delays.slice(0, measuredEvents).sort();
const p99 = measured.length
  ? measured[Math.min(measured.length - 1, Math.ceil(0.99 * measured.length) - 1)]
  : Number.NaN;
process.send({
  type: 'result',
  kind,
  sessions: SESSIONS,
  p99,
  max: measured.length ? measured[measured.length - 1] : Number.NaN,
  p50: measured[Math.floor(measured.length / 2)],
  missing: SESSIONS * TICKS - events,
  majorGcs,
});
await Promise.all(closers.map((close) => close()));
process.disconnect();
process.exit(0);
