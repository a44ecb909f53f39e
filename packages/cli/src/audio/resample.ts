import type { DecodedAudio } from './wav.js';

/**
 * Mixes `audio` down to mono and resamples it to `rate` by linear interpolation, as PCM16 little-endian.
 * Speech needs no better filter for a model to hear it; at an integer ratio every output sample is an input one.
 */
export function toPcm16Mono(audio: DecodedAudio, rate: number): Uint8Array {
  const frames = audio.channels[0]?.length ?? 0;
  const mono = new Float32Array(frames);
  for (const channel of audio.channels) {
    for (let i = 0; i < frames; i++) mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0) / audio.channels.length;
  }
  const length = Math.floor((frames * rate) / audio.sampleRate);
  const out = Buffer.alloc(length * 2);
  const step = audio.sampleRate / rate;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const left = Math.floor(position);
    const right = Math.min(left + 1, frames - 1);
    const fraction = position - left;
    const value = (mono[left] as number) * (1 - fraction) + (mono[right] as number) * fraction;
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value * 32768))), i * 2);
  }
  return new Uint8Array(out);
}
