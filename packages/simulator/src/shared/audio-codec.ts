/**
 * The simulators' audio arithmetic (the Realtime and the GPT-Live simulator alike): how many bytes a millisecond
 * takes in each session format, PCM16 and G.711 (µ-law, A-law) encoding and decoding, and conversion between a
 * session format and the PCM16 24 kHz the simulators reason in (VAD, synthesized speech, fixtures, reflections).
 */

/** PCM16 mono, or 8-bit G.711 µ-law / A-law, at a sample rate. */
export type CodecFormat = { type: 'audio/pcm' | 'audio/pcmu' | 'audio/pcma'; rate: number };

/** Bytes per millisecond of a session format (PCM16 mono, or 8-bit G.711 at 8 kHz). */
export function bytesPerMs(format: CodecFormat): number {
  return format.type === 'audio/pcm' ? (format.rate / 1000) * 2 : format.rate / 1000;
}

function decodeMuLaw(code: number): number {
  const u = ~code & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

function decodeALaw(code: number): number {
  const a = code ^ 0x55;
  const exponent = (a & 0x70) >> 4;
  let t = (a & 0x0f) << 4;
  t = exponent === 0 ? t + 8 : (t + 0x108) << (exponent - 1);
  return a & 0x80 ? t : -t;
}

const tables = new Map<string, { decode: Int16Array; sorted: { sample: number; code: number }[] }>();

function table(type: 'audio/pcmu' | 'audio/pcma') {
  let t = tables.get(type);
  if (!t) {
    const decode = new Int16Array(256);
    for (let c = 0; c < 256; c++) decode[c] = type === 'audio/pcmu' ? decodeMuLaw(c) : decodeALaw(c);
    const sorted = [...decode].map((sample, code) => ({ sample, code })).sort((a, b) => a.sample - b.sample);
    t = { decode, sorted };
    tables.set(type, t);
  }
  return t;
}

function encodeG711(type: 'audio/pcmu' | 'audio/pcma', sample: number): number {
  const { sorted } = table(type);
  let lo = 0;
  let hi = sorted.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as { sample: number }).sample <= sample) lo = mid;
    else hi = mid;
  }
  const a = sorted[lo] as { sample: number; code: number };
  const b = sorted[hi] as { sample: number; code: number };
  return Math.abs(a.sample - sample) <= Math.abs(b.sample - sample) ? a.code : b.code;
}

/** Samples of a session-format buffer. */
export function toSamples(format: CodecFormat, bytes: Uint8Array): Int16Array {
  if (format.type === 'audio/pcm') {
    const samples = new Int16Array(bytes.length >> 1);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
    return samples;
  }
  const { decode } = table(format.type);
  return Int16Array.from(bytes, (code) => decode[code] as number);
}

/** A session-format buffer of the given samples. */
export function fromSamples(format: CodecFormat, samples: Int16Array): Uint8Array {
  if (format.type === 'audio/pcm') {
    const bytes = new Uint8Array(samples.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
    return bytes;
  }
  const type = format.type;
  return Uint8Array.from(samples, (s) => encodeG711(type, s));
}

/** Nearest-sample resampling (enough for a simulator's reflections and fixtures). */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return samples;
  const out = new Int16Array(Math.round((samples.length * toRate) / fromRate));
  for (let i = 0; i < out.length; i++) {
    out[i] = samples[Math.min(samples.length - 1, Math.floor((i * fromRate) / toRate))] as number;
  }
  return out;
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
