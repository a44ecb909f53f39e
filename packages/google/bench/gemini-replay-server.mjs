// The Gemini Live replay server of the Gemini audio benchmark, in its own process (forked by gemini-audio-bench.mjs)
// so that none of its CPU time is counted for the clients. It answers `setup` with `setupComplete`, and client content
// that completes a turn with one long model turn: AUDIO_DELTAS pairs of `serverContent` messages (100 ms of PCM16 at
// 24 kHz as `inlineData`, 4,800 bytes; an output transcription fragment), then `generationComplete` and
// `turnComplete`. The frames are built once, before any client connects, and written as fast as the socket drains.
import { WebSocket, WebSocketServer } from 'ws';

const AUDIO_DELTAS = Number(process.env.BENCH_AUDIO_DELTAS ?? 20_000);
const BYTES_PER_DELTA = 4_800;
const DISTINCT_CHUNKS = 32;
const HIGH_WATER_FRAMES = 256;
const WORDS = [
  'Once',
  ' upon',
  ' a',
  ' time,',
  ' there',
  ' was',
  ' a',
  ' very',
  ' long',
  ' story',
  ' told',
  ' aloud.',
];

function pcmChunk(seed) {
  const bytes = Buffer.alloc(BYTES_PER_DELTA);
  const frequency = 180 + seed * 17;
  for (let i = 0; i < BYTES_PER_DELTA / 2; i++) {
    bytes.writeInt16LE(
      Math.round(8_000 * Math.sin((2 * Math.PI * frequency * i) / 24_000) + ((i * seed) % 97) - 48),
      i * 2,
    );
  }
  return bytes.toString('base64');
}

const chunks = Array.from({ length: DISTINCT_CHUNKS }, (_, seed) => pcmChunk(seed));
const frames = [];
for (let i = 0; i < AUDIO_DELTAS; i++) {
  frames.push(
    JSON.stringify({
      serverContent: {
        modelTurn: {
          parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: chunks[i % DISTINCT_CHUNKS] } }],
        },
      },
    }),
    JSON.stringify({ serverContent: { outputTranscription: { text: WORDS[i % WORDS.length] } } }),
  );
}
frames.push(
  JSON.stringify({ serverContent: { generationComplete: true } }),
  JSON.stringify({
    usageMetadata: {
      promptTokenCount: 10,
      responseTokenCount: AUDIO_DELTAS * 3,
      totalTokenCount: 10 + AUDIO_DELTAS * 3,
    },
  }),
  JSON.stringify({ serverContent: { turnComplete: true } }),
);

function stream(ws) {
  let next = 0;
  let pending = 0;
  let waiting = false;
  const written = () => {
    pending--;
    if (waiting && pending <= HIGH_WATER_FRAMES / 2) {
      waiting = false;
      pump();
    }
  };
  const pump = () => {
    while (next < frames.length) {
      if (ws.readyState !== WebSocket.OPEN) return;
      pending++;
      ws.send(frames[next++], { binary: false }, written);
      if (pending >= HIGH_WATER_FRAMES) {
        waiting = true;
        return;
      }
    }
  };
  pump();
}

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.setup) ws.send(JSON.stringify({ setupComplete: { sessionId: 'bench' } }));
    else if (message.clientContent?.turnComplete === true) stream(ws);
  });
});
wss.on('listening', () => {
  process.send({ port: wss.address().port, audioDeltas: AUDIO_DELTAS, bytesPerDelta: BYTES_PER_DELTA });
});
process.on('disconnect', () => wss.close(() => process.exit(0)));
