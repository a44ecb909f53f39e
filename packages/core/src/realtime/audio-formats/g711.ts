/**
 * G.711 companding (ITU-T G.711): µ-law (`g711_ulaw`, North America and Japan) and A-law (`g711_alaw`, elsewhere),
 * one byte a sample at 8 kHz, as phone lines carry. Decoding is a table; encoding takes the nearest code.
 */

import type { RealtimeAudioFormat } from '../audio.js';

/** The two G.711 laws, named as the session's audio formats name them. */
export type G711Law = Exclude<RealtimeAudioFormat, 'pcm16'>;

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

interface LawTables {
  /** Sample of each code. */
  decode: Int16Array;
  /** Code of each sample value offset by 32768 (a 64 K table: encoding is one lookup). */
  encode: Uint8Array;
}

const tables = new Map<G711Law, LawTables>();

function tablesOf(law: G711Law): LawTables {
  let t = tables.get(law);
  if (t) return t;
  const decode = new Int16Array(256);
  for (let c = 0; c < 256; c++) decode[c] = law === 'g711_ulaw' ? decodeMuLaw(c) : decodeALaw(c);
  const sorted = Array.from(decode, (sample, code) => ({ sample, code })).sort((a, b) => a.sample - b.sample);
  const encode = new Uint8Array(65536);
  let i = 0;
  for (let value = -32768; value <= 32767; value++) {
    while (i < sorted.length - 1 && (sorted[i + 1] as { sample: number }).sample <= value) i++;
    const here = sorted[i] as { sample: number; code: number };
    const next = sorted[Math.min(i + 1, sorted.length - 1)] as { sample: number; code: number };
    encode[value + 32768] =
      Math.abs(here.sample - value) <= Math.abs(next.sample - value) ? here.code : next.code;
  }
  t = { decode, encode };
  tables.set(law, t);
  return t;
}

/** The samples of G.711 bytes. */
export function decodeG711(law: G711Law, bytes: Uint8Array): Int16Array {
  const { decode } = tablesOf(law);
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = decode[bytes[i] as number] as number;
  return out;
}

/** G.711 bytes of samples (clamped to 16 bits). */
export function encodeG711(law: G711Law, samples: ArrayLike<number>): Uint8Array {
  const { encode } = tablesOf(law);
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-32768, Math.min(32767, Math.round(samples[i] as number)));
    out[i] = encode[s + 32768] as number;
  }
  return out;
}
