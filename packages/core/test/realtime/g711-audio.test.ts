import {
  AudioConverter,
  audioStreamBytesPerMs,
  audioStreamSampleRate,
  decodeG711,
  encodeG711,
  Resampler,
} from '@parley/core';
import { describe, expect, test } from 'vitest';

const pcm16 = (samples: ArrayLike<number>): Uint8Array => {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
  return bytes;
};
const samplesOf = (bytes: Uint8Array): Int16Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int16Array.from({ length: bytes.length >> 1 }, (_, i) => view.getInt16(i * 2, true));
};
const sine = (hz: number, ms: number, rate: number, amplitude = 8000): number[] =>
  Array.from({ length: (rate * ms) / 1000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );
const rms = (samples: ArrayLike<number>, skip = 0): number => {
  let sum = 0;
  for (let i = skip; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return Math.sqrt(sum / (samples.length - skip));
};

describe('G.711 (ITU-T G.711 code tables)', () => {
  test('µ-law: silence is 0xFF, the extremes are 0x00 / 0x80 (±32124)', () => {
    expect([...encodeG711('g711_ulaw', [0])]).toEqual([0xff]);
    expect([...decodeG711('g711_ulaw', new Uint8Array([0xff, 0x7f, 0x00, 0x80]))]).toEqual([
      0, 0, -32124, 32124,
    ]);
    expect([...encodeG711('g711_ulaw', [32767, -32768])]).toEqual([0x80, 0x00]);
  });

  test('A-law: the smallest steps are 0xD5 / 0x55 (±8), the extremes 0xAA / 0x2A (±32256)', () => {
    expect([...decodeG711('g711_alaw', new Uint8Array([0xd5, 0x55, 0xaa, 0x2a]))]).toEqual([
      8, -8, 32256, -32256,
    ]);
    expect([...encodeG711('g711_alaw', [8, -8, 32767, -32768])]).toEqual([0xd5, 0x55, 0xaa, 0x2a]);
  });

  test.each(['g711_ulaw', 'g711_alaw'] as const)(
    '%s: every code decodes and encodes back to itself',
    (law) => {
      const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
      const decoded = decodeG711(law, codes);
      const again = encodeG711(law, decoded);
      // µ-law has two codes for zero (0x7F and 0xFF); every other code is its own round trip.
      const differing = [...codes].filter((c) => again[c] !== c && decoded[c] !== 0);
      expect(differing).toEqual([]);
    },
  );
});

describe('AudioConverter: a phone line (µ-law 8 kHz) and a PCM16 session', () => {
  test.each([16_000, 24_000])(
    'µ-law 8 kHz → PCM16 %i Hz keeps the duration and the level of speech',
    (rate) => {
      const speech = sine(440, 200, 8000);
      const ulaw = encodeG711('g711_ulaw', speech);
      const converter = new AudioConverter(
        { encoding: 'g711_ulaw' },
        { encoding: 'pcm16', sampleRate: rate },
      );
      // Streamed in 20 ms frames, as a phone bridge receives them.
      const frames = Array.from({ length: 10 }, (_, i) =>
        converter.convert(ulaw.subarray(i * 160, (i + 1) * 160)),
      );
      const out = samplesOf(Uint8Array.from(frames.flatMap((f) => [...f])));
      expect(out.length).toBe((rate * 200) / 1000);
      expect(rms(out, 200) / rms(speech)).toBeGreaterThan(0.9);
      expect(rms(out, 200) / rms(speech)).toBeLessThan(1.1);
    },
  );

  test('PCM16 24 kHz → µ-law 8 kHz removes what 8 kHz cannot carry instead of folding it back', () => {
    // 5 kHz is above 8 kHz's Nyquist frequency (4 kHz): without a low-pass filter it would alias to 3 kHz.
    const converter = new AudioConverter(
      { encoding: 'pcm16', sampleRate: 24_000 },
      { encoding: 'g711_ulaw' },
    );
    const out = decodeG711('g711_ulaw', converter.convert(pcm16(sine(5000, 200, 24_000))));
    expect(out.length).toBe(1600);
    // Unfiltered, the alias would keep the full level; filtered (and µ-law quantized) under 5 % of it is left.
    expect(rms(out, 100)).toBeLessThan(0.05 * 8000 * Math.SQRT1_2);
    // Speech-band audio goes through.
    const voice = new AudioConverter({ encoding: 'pcm16', sampleRate: 24_000 }, { encoding: 'g711_ulaw' });
    const kept = decodeG711('g711_ulaw', voice.convert(pcm16(sine(1000, 200, 24_000))));
    expect(rms(kept, 100) / (8000 * Math.SQRT1_2)).toBeGreaterThan(0.9);
  });

  test('equal formats pass bytes through untouched; the byte rates are those of the formats', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(new AudioConverter({ encoding: 'g711_alaw' }, { encoding: 'g711_alaw' }).convert(bytes)).toBe(
      bytes,
    );
    expect(audioStreamBytesPerMs({ encoding: 'g711_ulaw' })).toBe(8);
    expect(audioStreamBytesPerMs({ encoding: 'pcm16', sampleRate: 16_000 })).toBe(32);
    expect(audioStreamSampleRate({ encoding: 'g711_alaw' })).toBe(8000);
    expect(audioStreamSampleRate({ encoding: 'pcm16', sampleRate: 16_000 })).toBe(16_000);
  });
});

describe('Resampler', () => {
  test('a stream cut into chunks of any size comes out as the whole stream would', () => {
    const input = sine(300, 100, 16_000);
    const whole = new Resampler(16_000, 24_000).push(input);
    const chunked = new Resampler(16_000, 24_000);
    const parts: number[] = [];
    for (let at = 0; at < input.length; at += 37) parts.push(...chunked.push(input.slice(at, at + 37)));
    expect(parts.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(parts[i]).toBeCloseTo(whole[i] as number, 6);
  });

  test('refuses rates that are not positive integers', () => {
    expect(() => new Resampler(0, 8000)).toThrow(RangeError);
    expect(() => new Resampler(22_050.5, 8000)).toThrow(RangeError);
  });
});
