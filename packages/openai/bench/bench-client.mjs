// One client run of the realtime audio benchmark, in a fresh process forked by realtime-audio-bench.mjs:
//   node bench-client.mjs <client> <url> <audioDeltas> <bytesPerDelta>
// It connects, asks for the long response, and measures this process's CPU time (user + system, all threads) from
// the first audio callback to the last. It reports { microsPerEvent, ... } over IPC and exits.
import { WebSocket } from 'ws';
import { audioWindow } from './audio-window.mjs';

const [kind, url, audioDeltasArg, bytesPerDeltaArg] = process.argv.slice(2);
const AUDIO_DELTAS = Number(audioDeltasArg);
const BYTES_PER_DELTA = Number(bytesPerDeltaArg);
const API_KEY = 'sk-bench-not-a-real-key';
// A paired run can point these at another build (see BENCH_COMPARE_* in realtime-audio-bench.mjs).
const CORE = process.env.BENCH_CORE_MODULE || '@parley/core';
const OPENAI = process.env.BENCH_OPENAI_MODULE || '@parley/openai';

const { onAudio, lastAudio, report } = audioWindow(AUDIO_DELTAS, BYTES_PER_DELTA);

/**
 * Collects the garbage of loading and connecting, right before the response is asked for: what a client did
 * before the stream must not decide when collections fall inside it.
 */
function settle() {
  globalThis.gc?.();
}

/** (a) The floor: a bare `ws` client that parses every frame and decodes the audio, nothing else. */
async function floor() {
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${API_KEY}` } });
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  ws.on('message', (data) => {
    const event = JSON.parse(data.toString());
    if (event.type === 'response.output_audio.delta') onAudio(Buffer.from(event.delta, 'base64'));
    else if (event.type === 'session.created') {
      settle();
      ws.send(JSON.stringify({ type: 'response.create' }));
    } else if (event.type === 'response.done') done();
  });
  await finished;
  ws.close();
}

/**
 * (a') The floor in a process that loaded Parley (the modules the Parley clients import): the same work on the
 * larger heap every Parley client carries.
 */
async function floorLoaded() {
  await import(CORE);
  await import(OPENAI);
  await floor();
}

/** (b) Parley: a RealtimeSession on OpenAIRealtimeModel, with an `audio` listener. */
async function parleySession() {
  const { Agent, RealtimeSession } = await import(CORE);
  const { OpenAIRealtimeModel } = await import(OPENAI);
  const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url, WebSocket });
  const session = new RealtimeSession(new Agent({ name: 'Narrator', instructions: 'Tell long stories.' }), {
    model,
  });
  session.on('audio', (event) => onAudio(event.data));
  const finished = new Promise((resolve) => session.on('response_done', resolve));
  await session.connect();
  settle();
  session.sendMessage('Tell me a long story.');
  await finished;
  await session.close();
}

/** (b') Parley's adapter alone: OpenAIRealtimeConnection with an `audio_delta` listener (no session). */
async function parleyConnection() {
  const { OpenAIRealtimeModel } = await import(OPENAI);
  const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url, WebSocket });
  const connection = await model.connect({ config: {} });
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  connection.onEvent((event) => {
    if (event.type === 'audio_delta') onAudio(event.audio);
    else if (event.type === 'response_done') done();
  });
  settle();
  connection.send({ type: 'createResponse', clientRequestId: 'bench', conversation: 'default' });
  await finished;
  await connection.close();
}

/** (c) @openai/agents-realtime: its RealtimeSession on the OpenAIRealtimeWebSocket transport. */
async function agentsSession() {
  const { OpenAIRealtimeWebSocket, RealtimeAgent, RealtimeSession } = await import('@openai/agents-realtime');
  const agent = new RealtimeAgent({ name: 'Narrator', instructions: 'Tell long stories.' });
  const session = new RealtimeSession(agent, {
    transport: new OpenAIRealtimeWebSocket({ url }),
    model: 'gpt-realtime',
  });
  session.on('audio', (event) => onAudio(event.data));
  // The peer's own event name (Parley's is `agent_done`).
  const finished = new Promise((resolve) => session.on('agent_end', resolve));
  await session.connect({ apiKey: API_KEY, url });
  settle();
  session.sendMessage('Tell me a long story.');
  await finished;
  session.close();
}

const clients = {
  floor,
  'floor-loaded': floorLoaded,
  'parley-session': parleySession,
  'parley-connection': parleyConnection,
  agents: agentsSession,
};
const run = clients[kind];
if (!run) throw new Error(`Unknown client "${kind}"; one of ${Object.keys(clients).join(', ')}.`);

await Promise.all([run(), lastAudio]);
report(kind);
