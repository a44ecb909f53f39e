import { decodeG711, encodeG711, Resampler } from '@parley/core';
/**
 * The simulators' audio arithmetic (the Realtime and the GPT-Live simulator alike): how many bytes a millisecond
 * takes in each session format, PCM16 and G.711 (µ-law, A-law) encoding and decoding, and conversion (with core's
 * resampler) between a session format and the PCM16 24 kHz the simulators reason in (VAD, synthesized speech, fixtures, reflections).
 */

/** PCM16 mono, or 8-bit G.711 µ-law / A-law, at a sample rate. */
export type CodecFormat = { type: 'audio/pcm' | 'audio/pcmu' | 'audio/pcma'; rate: number };

/** Bytes per millisecond of a session format (PCM16 mono, or 8-bit G.711 at 8 kHz). */
export function bytesPerMs(format: CodecFormat): number {
  return format.type === 'audio/pcm' ? (format.rate / 1000) * 2 : format.rate / 1000;
}

const LAW = { 'audio/pcmu': 'g711_ulaw', 'audio/pcma': 'g711_alaw' } as const;

/** Samples of a session-format buffer. */
export function toSamples(format: CodecFormat, bytes: Uint8Array): Int16Array {
  if (format.type === 'audio/pcm') {
    const samples = new Int16Array(bytes.length >> 1);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
    return samples;
  }
  return decodeG711(LAW[format.type], bytes);
}

/** A session-format buffer of the given samples. */
export function fromSamples(format: CodecFormat, samples: Int16Array): Uint8Array {
  if (format.type === 'audio/pcm') {
    const bytes = new Uint8Array(samples.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
    return bytes;
  }
  return encodeG711(LAW[format.type], samples);
}

/** Resamples a whole buffer with Parley's one resampler (low-pass filtered). */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return samples;
  const out = new Resampler(fromRate, toRate).push(samples);
  return Int16Array.from(out, (s) => Math.max(-32768, Math.min(32767, Math.round(s))));
}

/** A session-format buffer as PCM16 24 kHz (the sideband's reflection format). */
export function toPcm24(format: CodecFormat, bytes: Uint8Array): Uint8Array {
  if (format.type === 'audio/pcm' && format.rate === 24000) return bytes;
  const pcm = { type: 'audio/pcm', rate: 24000 } as const;
  return fromSamples(pcm, resample(toSamples(format, bytes), format.rate, 24000));
}

/** PCM16 24 kHz as a session-format buffer. */
export function fromPcm24(format: CodecFormat, pcm24: Uint8Array): Uint8Array {
  if (format.type === 'audio/pcm' && format.rate === 24000) return pcm24;
  const pcm = { type: 'audio/pcm', rate: 24000 } as const;
  return fromSamples(format, resample(toSamples(pcm, pcm24), 24000, format.rate));
}

/** Root-mean-square level of samples, 0–1. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length) / 32768;
}

/** The chunks of a stream, in order, as one array. */
export function concatAudio(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
