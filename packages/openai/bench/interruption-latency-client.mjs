// One client run of the interruption-latency benchmark (forked by interruption-latency-bench.mjs):
//   node interruption-latency-client.mjs <client> <url> <trials>
import { WebSocket } from 'ws';

const [kind, url, trialsArg] = process.argv.slice(2);
const TRIALS = Number(trialsArg);
const API_KEY = 'sk-bench-not-a-real-key';

let marks = {};
/** Records when a cancel or a truncate is handed to the socket. */
class RecordingWebSocket extends WebSocket {
  send(data, ...rest) {
    const text = typeof data === 'string' ? data : String(data);
    if (marks.cancel === undefined && text.includes('"response.cancel"')) marks.cancel = performance.now();
    else if (marks.truncate === undefined && text.includes('"conversation.item.truncate"'))
      marks.truncate = performance.now();
    return super.send(data, ...rest);
  }
}

const cancelLatency = [];
const truncateLatency = [];
let sameTurn = 0;

/** Calls `interrupt` and records its latencies once the response it stopped is done. */
function measure(interrupt) {
  marks = {};
  const calledAt = performance.now();
  interrupt();
  const returnedAt = performance.now();
  return () => {
    if (marks.cancel !== undefined) cancelLatency.push((marks.cancel - calledAt) * 1000);
    if (marks.truncate !== undefined) truncateLatency.push((marks.truncate - calledAt) * 1000);
    if (marks.cancel <= returnedAt && marks.truncate <= returnedAt) sameTurn++;
  };
}

/** The floor: a bare `ws` client that writes the cancel and the truncate itself. */
async function floor() {
  const ws = new RecordingWebSocket(url, { headers: { Authorization: `Bearer ${API_KEY}` } });
  let trials = 0;
  let audio = 0;
  let itemId;
  let record;
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  ws.on('message', (data) => {
    const event = JSON.parse(data.toString());
    if (event.type === 'session.created') ws.send(JSON.stringify({ type: 'response.create' }));
    else if (event.type === 'response.output_audio.delta') {
      itemId = event.item_id;
      if (++audio === 3)
        setImmediate(() => {
          record = measure(() => {
            ws.send(JSON.stringify({ type: 'response.cancel' }));
            ws.send(
              JSON.stringify({
                type: 'conversation.item.truncate',
                item_id: itemId,
                content_index: 0,
                audio_end_ms: 300,
              }),
            );
          });
        });
    } else if (event.type === 'response.done') {
      record?.();
      record = undefined;
      audio = 0;
      if (++trials === TRIALS) done();
      else ws.send(JSON.stringify({ type: 'response.create' }));
    }
  });
  await finished;
  ws.close();
}

async function parleySession() {
  const { Agent, RealtimeSession } = await import('@parley/core');
  const { OpenAIRealtimeModel } = await import('@parley/openai');
  const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url, WebSocket: RecordingWebSocket });
  const session = new RealtimeSession(new Agent({ name: 'Narrator', instructions: 'Tell long stories.' }), {
    model,
  });
  let trials = 0;
  let audio = 0;
  let record;
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  session.on('audio', () => {
    if (++audio === 3) setImmediate(() => (record = measure(() => session.interrupt())));
  });
  session.on('response_done', () => {
    record?.();
    record = undefined;
    audio = 0;
    if (++trials === TRIALS) done();
    else session.generateResponse();
  });
  await session.connect();
  session.generateResponse();
  await finished;
  await session.close();
}

const clients = { floor, 'parley-session': parleySession };
const run = clients[kind];
if (!run) throw new Error(`Unknown client "${kind}"; one of ${Object.keys(clients).join(', ')}.`);
await run();

const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const summary = (values) => ({ p50: percentile(values, 50), p99: percentile(values, 99), n: values.length });
process.send({
  kind,
  trials: TRIALS,
  sameTurn,
  cancel: summary(cancelLatency),
  truncate: summary(truncateLatency),
});
process.disconnect();
