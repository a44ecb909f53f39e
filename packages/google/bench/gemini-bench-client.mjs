// One client run of the Gemini audio benchmark, in a fresh process forked by gemini-audio-bench.mjs:
//   node gemini-bench-client.mjs <client> <wsBaseUrl> <audioDeltas> <bytesPerDelta>
// It connects, asks for the long turn, and measures this process's CPU time (user + system) from the first audio
// callback to the last, as the OpenAI benchmark's client does. It reports { microsPerEvent, ... } over IPC and exits.
import { WebSocket } from 'ws';

const [kind, baseUrl, audioDeltasArg, bytesPerDeltaArg] = process.argv.slice(2);
const AUDIO_DELTAS = Number(audioDeltasArg);
const BYTES_PER_DELTA = Number(bytesPerDeltaArg);

let events = 0;
let bytes = 0;
let startCpu;
let windowCpu;
let startWall = 0;
let windowWallMs = 0;
let markLast;
const lastAudio = new Promise((resolve) => {
  markLast = resolve;
});

function onAudio(data) {
  events++;
  bytes += data.byteLength;
  if (events === 1) {
    startCpu = process.cpuUsage();
    startWall = performance.now();
  } else if (events === AUDIO_DELTAS) {
    windowCpu = process.cpuUsage(startCpu);
    windowWallMs = performance.now() - startWall;
    markLast();
  }
}

/** The Gemini floor: a bare `ws` client that parses every frame and decodes the audio, nothing else. */
async function floor() {
  const ws = new WebSocket(`${baseUrl}/ws/bench`);
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  ws.on('open', () => ws.send(JSON.stringify({ setup: { model: 'models/bench' } })));
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const content = message.serverContent;
    if (content?.modelTurn) {
      for (const part of content.modelTurn.parts) {
        if (part.inlineData) onAudio(Buffer.from(part.inlineData.data, 'base64'));
      }
    } else if (content?.turnComplete) done();
    else if (message.setupComplete) {
      globalThis.gc?.();
      ws.send(
        JSON.stringify({
          clientContent: { turns: [{ role: 'user', parts: [{ text: 'Go.' }] }], turnComplete: true },
        }),
      );
    }
  });
  await finished;
  ws.close();
}

/** Parley: a RealtimeSession on GeminiLiveModel, with an `audio` listener. */
async function parleySession() {
  const { Agent, RealtimeSession } = await import('@parley/core');
  const { GeminiLiveModel } = await import('@parley/google');
  const model = new GeminiLiveModel({ apiKey: 'bench-not-a-real-key', baseUrl, keepalive: false, WebSocket });
  const session = new RealtimeSession(new Agent({ name: 'Narrator', instructions: 'Tell long stories.' }), {
    model,
  });
  session.on('audio', (event) => onAudio(event.data));
  const finished = new Promise((resolve) => session.on('response_done', resolve));
  await session.connect();
  globalThis.gc?.();
  session.sendMessage('Tell me a long story.');
  await finished;
  await session.close();
}

const clients = { 'gemini-floor': floor, 'gemini-session': parleySession };
const run = clients[kind];
if (!run) throw new Error(`Unknown client "${kind}"; one of ${Object.keys(clients).join(', ')}.`);
await Promise.all([run(), lastAudio]);
if (events !== AUDIO_DELTAS || bytes !== AUDIO_DELTAS * BYTES_PER_DELTA) {
  throw new Error(
    `${kind}: got ${events} audio events / ${bytes} bytes, expected ${AUDIO_DELTAS} / ${AUDIO_DELTAS * BYTES_PER_DELTA}.`,
  );
}
process.send({
  kind,
  events,
  microsPerEvent: (windowCpu.user + windowCpu.system) / (AUDIO_DELTAS - 1),
  wallMs: windowWallMs,
});
process.disconnect();
