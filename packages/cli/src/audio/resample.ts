import { Resampler } from '@parley/core';
import type { DecodedAudio } from './wav.js';

/**
 * Mixes `audio` down to mono and resamples it to `rate` with Parley's one resampler (low-pass filtered, so a 44.1 or
 * 48 kHz recording does not alias when it comes down to 24 or 16 kHz), as PCM16 little-endian.
 */
export function toPcm16Mono(audio: DecodedAudio, rate: number): Uint8Array {
  const frames = audio.channels[0]?.length ?? 0;
  const mono = new Float64Array(frames);
  for (const channel of audio.channels) {
    for (let i = 0; i < frames; i++)
      mono[i] = (mono[i] ?? 0) + ((channel[i] ?? 0) * 32768) / audio.channels.length;
  }
  const samples = new Resampler(audio.sampleRate, rate).push(mono);
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i] as number))), i * 2);
  }
  return new Uint8Array(out);
}
