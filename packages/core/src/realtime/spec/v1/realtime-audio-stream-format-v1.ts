import type { RealtimeAudioFormatV1 } from './realtime-audio-format-v1.js';

/**
 * The format of an audio stream a connection takes in or puts out: an encoding of {@link RealtimeAudioFormatV1}
 * with its sample rate — PCM16 (little-endian, mono) at any rate (24 kHz is what `pcm16` means in a session
 * configuration), or G.711 µ-law / A-law (one byte a sample, always 8 kHz).
 */
export type RealtimeAudioStreamFormatV1 =
  | { encoding: Extract<RealtimeAudioFormatV1, 'pcm16'>; sampleRate: number }
  | { encoding: Exclude<RealtimeAudioFormatV1, 'pcm16'> };
