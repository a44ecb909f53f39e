/** Realtime audio on the seam is PCM16 little-endian, mono, at this sample rate. */
export const PCM16_SAMPLE_RATE = 24_000;

/** Bytes of PCM16 24 kHz mono audio per millisecond. */
export const PCM16_BYTES_PER_MS = 48;

/** Whole milliseconds of audio in `byteLength` bytes of PCM16 24 kHz mono. */
export function pcm16DurationMs(byteLength: number): number {
  return Math.floor(byteLength / PCM16_BYTES_PER_MS);
}
