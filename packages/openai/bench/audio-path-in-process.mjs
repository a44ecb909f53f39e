// The realtime audio path in one process, without a network: a real `ws` WebSocket whose receiver is fed the audio
// benchmark's wire bytes synchronously (64 KiB chunks, each in a fresh buffer as a socket read gives them), so what
// it measures is the client's work from the socket's bytes to the app's audio callback, with far less noise than
// the benchmark across processes. Not a test and not part of `pnpm bench`:
//   node packages/openai/bench/audio-path-in-process.mjs [rounds] [pairs]
// after `pnpm build`. Clients alternate for `rounds` (7) rounds of `pairs` (20,000) audio + transcript deltas and it
// prints the median CPU time per pair: `ws` alone (frames counted), the floor (JSON.parse + base64 decode), Parley's
// adapter and Parley's session; with BENCH_COMPARE_CORE / BENCH_COMPARE_OPENAI (as in realtime-audio-bench.mjs) the
// adapter and the session on that build too, and the per-round ratios new/old.
// It reaches into `ws` internals (`setSocket`, `_isServer`) to attach the fake socket: a tool, not an API.
import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import { median } from './bench-audio.mjs';

const ROUNDS = Number(process.argv[2] ?? 7);
const PAIRS = Number(process.argv[3] ?? 20_000);
const CHUNK = 64 * 1024;
const RESPONSE_ID = 'resp_CBenchReplay0000000001';
const ITEM_ID = 'item_CBenchReplay0000000002';
const ids = { response_id: RESPONSE_ID, item_id: ITEM_ID, output_index: 0, content_index: 0 };

/** An unmasked server text frame. */
function wire(text) {
  const payload = Buffer.from(text);
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, n]) : Buffer.from([0x81, 126, n >> 8, n & 255]);
  return Buffer.concat([head, payload]);
}

let eventCounter = 0;
const eventId = () => `event_${(eventCounter++).toString(36).padStart(21, '0')}`;
const chunks = Array.from({ length: 32 }, (_, seed) => {
  const bytes = Buffer.alloc(4_800);
  for (let i = 0; i < 2_400; i++) {
    bytes.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * (180 + seed * 17) * i) / 24_000)), i * 2);
  }
  return bytes.toString('base64');
});
const words = ['Once', ' upon', ' a', ' time,', ' there', ' was', ' a', ' very', ' long', ' story'];
const stream = Buffer.concat(
  Array.from({ length: PAIRS }, (_, i) => [
    wire(
      JSON.stringify({
        type: 'response.output_audio_transcript.delta',
        event_id: eventId(),
        ...ids,
        delta: words[i % words.length],
        obfuscation: 'q2Xh7Zk',
      }),
    ),
    wire(
      JSON.stringify({
        type: 'response.output_audio.delta',
        event_id: eventId(),
        ...ids,
        delta: chunks[i % 32],
      }),
    ),
  ]).flat(),
);
const item = {
  id: ITEM_ID,
  object: 'realtime.item',
  type: 'message',
  status: 'in_progress',
  role: 'assistant',
  content: [],
};
const preamble = (metadata) => [
  {
    type: 'response.created',
    response: { object: 'realtime.response', id: RESPONSE_ID, status: 'in_progress', output: [], metadata },
  },
  { type: 'response.output_item.added', response_id: RESPONSE_ID, output_index: 0, item },
  { type: 'conversation.item.added', previous_item_id: null, item },
  { type: 'response.content_part.added', ...ids, part: { type: 'audio', transcript: '' } },
];

class FakeTcp extends EventEmitter {
  setTimeout() {}
  setNoDelay() {}
  write(_data, callback) {
    callback?.();
    return true;
  }
  end() {}
  destroy() {}
  pause() {}
  resume() {}
  cork() {}
  uncork() {}
}

let current;
/** A `ws` client socket that plays the service: ready at once, answers session.update and response.create. */
class LoopbackWebSocket extends WebSocket {
  constructor() {
    super(null, undefined, {});
    this._isServer = false;
    this.tcp = new FakeTcp();
    this.setSocket(this.tcp, Buffer.alloc(0), {
      allowSynchronousEvents: true,
      maxPayload: 100 * 1024 * 1024,
    });
    current = this;
    setImmediate(() => this.serve({ type: 'session.created', session: { id: 'sess', expires_at: 0 } }));
  }
  serve(event) {
    this.tcp.emit('data', wire(JSON.stringify({ event_id: eventId(), ...event })));
  }
  send(data) {
    const event = JSON.parse(data);
    if (event.type === 'session.update')
      setImmediate(() => this.serve({ type: 'session.updated', session: event.session }));
    if (event.type === 'response.create') {
      setImmediate(() => {
        for (const next of preamble(event.response?.metadata ?? null)) this.serve(next);
        this.started?.();
      });
    }
  }
  close() {
    this._readyState = 3;
    setImmediate(() => this.emit('close', 1000, Buffer.alloc(0)));
  }
  terminate() {
    this.close();
  }
}

let events = 0;
const onAudio = () => {
  events++;
};

function feed(socket) {
  globalThis.gc?.();
  const start = process.cpuUsage();
  for (let at = 0; at < stream.length; at += CHUNK) {
    const read = Buffer.allocUnsafeSlow(Math.min(CHUNK, stream.length - at));
    stream.copy(read, 0, at, at + read.length);
    socket.tcp.emit('data', read);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / PAIRS;
}

const bare = {
  ws: (data) => {
    if (data.length > 4_000) onAudio();
  },
  floor: (data) => {
    const event = JSON.parse(data.toString());
    if (event.type === 'response.output_audio.delta') onAudio(Buffer.from(event.delta, 'base64'));
  },
};

async function run({ kind, core, openai }) {
  events = 0;
  let micros;
  if (bare[kind]) {
    const socket = new LoopbackWebSocket();
    socket.on('message', bare[kind]);
    micros = feed(socket);
  } else {
    const { Agent, RealtimeSession } = await import(core);
    const { OpenAIRealtimeModel } = await import(openai);
    const model = new OpenAIRealtimeModel({
      apiKey: 'sk-bench',
      url: 'ws://loopback.invalid',
      WebSocket: LoopbackWebSocket,
    });
    const started = () => new Promise((resolve) => (current.started = resolve));
    let close;
    if (kind === 'session') {
      const session = new RealtimeSession(
        new Agent({ name: 'Narrator', instructions: 'Tell long stories.' }),
        { model },
      );
      session.on('audio', (event) => onAudio(event.data));
      await session.connect();
      const ready = started();
      session.sendMessage('Tell me a long story.');
      await ready;
      close = () => session.close();
    } else {
      const connection = await model.connect({ config: {} });
      connection.onEvent((event) => event.type === 'audio_delta' && onAudio(event.audio));
      const ready = started();
      connection.send({ type: 'createResponse', clientRequestId: 'bench', conversation: 'default' });
      await ready;
      close = () => connection.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    micros = feed(current);
    await close();
  }
  if (events !== PAIRS) throw new Error(`${kind}: ${events} audio events, expected ${PAIRS}.`);
  return micros;
}

const here = { core: '@parley/core', openai: '@parley/openai' };
const other = { core: process.env.BENCH_COMPARE_CORE, openai: process.env.BENCH_COMPARE_OPENAI };
const clients = [
  { id: 'ws alone', kind: 'ws' },
  { id: 'floor', kind: 'floor' },
  { id: 'adapter', kind: 'connection', ...here },
  { id: 'session', kind: 'session', ...here },
  ...(other.core && other.openai
    ? [
        { id: 'adapter (compared build)', kind: 'connection', ...other },
        { id: 'session (compared build)', kind: 'session', ...other },
      ]
    : []),
];
const samples = new Map(clients.map((client) => [client.id, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const client of round % 2 ? [...clients].reverse() : clients)
    samples.get(client.id).push(await run(client));
}
console.log(
  `Audio path in process: CPU µs per audio + transcript pair, median of ${ROUNDS} rounds of ${PAIRS.toLocaleString('en-US')}`,
);
for (const [id, values] of samples) console.log(`  ${id.padEnd(26)} ${median(values).toFixed(2)}`);
for (const [now, before] of [
  ['adapter', 'adapter (compared build)'],
  ['session', 'session (compared build)'],
]) {
  if (!samples.has(before)) continue;
  const ratios = samples.get(now).map((value, round) => value / samples.get(before)[round]);
  console.log(
    `  ${now} / compared build per round: ${ratios.map((r) => r.toFixed(3)).join(' ')} (median ${median(ratios).toFixed(3)})`,
  );
}
process.exit(0);
