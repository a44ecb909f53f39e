// What the audio benchmarks share: the replayed audio and transcript, how replay servers write it, and the median
// they report.
import { WebSocket } from 'ws';

/** Bytes of one 100 ms PCM16 24 kHz audio delta. */
export const BYTES_PER_DELTA = 4_800;

/** One delta of replayed audio (a tone with a little noise, varied by `seed`), as base64. */
export function pcmChunk(seed) {
  const bytes = Buffer.alloc(BYTES_PER_DELTA);
  const frequency = 180 + seed * 17;
  for (let i = 0; i < BYTES_PER_DELTA / 2; i++) {
    const sample = Math.round(
      8_000 * Math.sin((2 * Math.PI * frequency * i) / 24_000) + ((i * seed) % 97) - 48,
    );
    bytes.writeInt16LE(sample, i * 2);
  }
  return bytes.toString('base64');
}

/** The median of `values`. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The transcript of the replayed audio, one word per delta (cycled). */
export const WORDS = [
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

/** Frames handed to the socket and not yet written; above it a replay server waits for the socket to drain. */
const HIGH_WATER_FRAMES = 256;

/** Writes precomputed `frames` to `ws`, never more than HIGH_WATER_FRAMES ahead of the socket; resolves when done. */
export function streamFrames(ws, frames) {
  return new Promise((resolve) => {
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
        if (ws.readyState !== WebSocket.OPEN) return resolve();
        pending++;
        ws.send(frames[next++], { binary: false }, written);
        if (pending >= HIGH_WATER_FRAMES) {
          waiting = true;
          return;
        }
      }
      resolve();
    };
    pump();
  });
}
