import { describe, expect, it } from 'vitest';
import { Pcm24To16 } from '../src/downsample.js';

const pcm = (samples: readonly number[]) => {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (const [i, s] of samples.entries()) view.setInt16(i * 2, s, true);
  return bytes;
};
const samplesOf = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.byteLength / 2 }, (_, i) => view.getInt16(i * 2, true));
};
const sine = (rate: number, hz: number, count: number, amplitude = 12_000) =>
  Array.from({ length: count }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)));
const concat = (chunks: Uint8Array[]) => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
};

describe('PCM16 24 kHz → 16 kHz input conversion', () => {
  it('makes two samples of every three: 100 ms in is 100 ms out', () => {
    const out = new Pcm24To16().convert(pcm(sine(24_000, 440, 2400)));
    // The last input sample is kept for the next chunk: the stream is 1600 samples once it goes on.
    expect(out.byteLength / 2).toBeGreaterThanOrEqual(1599);
    expect(out.byteLength / 2).toBeLessThanOrEqual(1600);
  });

  it('keeps the waveform: a 440 Hz tone comes out as the same tone sampled at 16 kHz', () => {
    const out = samplesOf(new Pcm24To16().convert(pcm(sine(24_000, 440, 4800))));
    const expected = sine(16_000, 440, out.length);
    const worst = Math.max(...out.map((s, i) => Math.abs(s - (expected[i] as number))));
    expect(worst).toBeLessThan(12_000 * 0.01);
  });

  it('gives the same stream whatever the chunking, odd byte counts included', () => {
    const input = pcm(sine(24_000, 300, 4800));
    const whole = new Pcm24To16().convert(input);
    const chunked = new Pcm24To16();
    const parts: Uint8Array[] = [];
    const sizes = [1, 7, 480, 3, 961, 2, 1999, 5];
    let offset = 0;
    for (let i = 0; offset < input.length; i++) {
      const size = sizes[i % sizes.length] as number;
      parts.push(chunked.convert(input.subarray(offset, offset + size)));
      offset += size;
    }
    expect(samplesOf(concat(parts))).toEqual(samplesOf(whole));
  });
});
