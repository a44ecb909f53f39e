/** Realtime audio on the seam is PCM16 little-endian, mono, at this sample rate. */
export const PCM16_SAMPLE_RATE = 24_000;

/** Bytes of PCM16 24 kHz mono audio per millisecond. */
export const PCM16_BYTES_PER_MS = 48;

/** Whole milliseconds of audio in `byteLength` bytes of PCM16 24 kHz mono. */
export function pcm16DurationMs(byteLength: number): number {
  return Math.floor(byteLength / PCM16_BYTES_PER_MS);
}

/**
 * An audio encoding on the seam: `pcm16` (PCM16 little-endian mono 24 kHz, the default), or G.711 `g711_ulaw` /
 * `g711_alaw` (8 kHz, one byte a sample), which phone lines carry. Audio bytes pass through in the session's format.
 */
export type RealtimeAudioFormat = 'pcm16' | 'g711_ulaw' | 'g711_alaw';

/** Bytes per millisecond of `format`: 48 for `pcm16`, 8 for G.711. */
export function audioBytesPerMs(format: RealtimeAudioFormat = 'pcm16'): number {
  return format === 'pcm16' ? PCM16_BYTES_PER_MS : 8;
}
