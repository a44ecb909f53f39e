// The Gemini Live replay server of the Gemini audio benchmark, in its own process (forked by gemini-audio-bench.mjs)
// so that none of its CPU time is counted for the clients. It answers `setup` with `setupComplete`, and client content
// that completes a turn with one long model turn: AUDIO_DELTAS pairs of `serverContent` messages (100 ms of PCM16 at
// 24 kHz as `inlineData`, 4,800 bytes; an output transcription fragment), then `generationComplete` and
// `turnComplete`. The frames are built once, before any client connects, and written as fast as the socket drains.
import { WebSocketServer } from 'ws';
import { BYTES_PER_DELTA, pcmChunk, streamFrames, WORDS } from '../../openai/bench/bench-audio.mjs';

const AUDIO_DELTAS = Number(process.env.BENCH_AUDIO_DELTAS ?? 20_000);
const DISTINCT_CHUNKS = 32;

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

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.setup) ws.send(JSON.stringify({ setupComplete: { sessionId: 'bench' } }));
    else if (message.clientContent?.turnComplete === true) void streamFrames(ws, frames);
  });
});
wss.on('listening', () => {
  process.send({ port: wss.address().port, audioDeltas: AUDIO_DELTAS, bytesPerDelta: BYTES_PER_DELTA });
});
process.on('disconnect', () => wss.close(() => process.exit(0)));
