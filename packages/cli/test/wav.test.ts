import { decodeWav, encodeWav, toPcm16Mono, WavFormatError } from '@parley/cli';
import { describe, expect, test } from 'vitest';

/** A WAV file by hand, from the RIFF/WAVE layout: a `fmt ` chunk (optionally extensible), then `data`. */
function wav(
  format: number,
  channels: number,
  rate: number,
  bits: number,
  data: Buffer,
  extensible = false,
): Buffer {
  const fmt = Buffer.alloc(extensible ? 40 : 16);
  fmt.writeUInt16LE(extensible ? 0xfffe : format, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 8);
  fmt.writeUInt16LE((channels * bits) / 8, 12);
  fmt.writeUInt16LE(bits, 14);
  if (extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(format, 24);
  }
  const list = Buffer.from('LIST\x04\x00\x00\x00INFO', 'latin1'); // a chunk readers must skip
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'ascii');
    head.writeUInt32LE(body.byteLength, 4);
    return Buffer.concat([head, body, body.byteLength % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', fmt), list, chunk('data', data)]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.byteLength, 4);
  return Buffer.concat([riff, body]);
}

describe('decodeWav', () => {
  test('reads 8-bit unsigned, 16/24/32-bit signed and 32-bit float PCM to the same values', () => {
    const half = [
      wav(1, 1, 8000, 8, Buffer.from([192, 64])),
      wav(1, 1, 8000, 16, Buffer.from(new Int16Array([16384, -16384]).buffer)),
      wav(1, 1, 8000, 24, Buffer.from([0, 0, 0x40, 0, 0, 0xc0])),
      wav(1, 1, 8000, 32, Buffer.from(new Int32Array([2 ** 30, -(2 ** 30)]).buffer)),
      wav(3, 1, 8000, 32, Buffer.from(new Float32Array([0.5, -0.5]).buffer), true),
    ];
    for (const file of half) expect([...(decodeWav(file).channels[0] ?? [])]).toEqual([0.5, -0.5]);
  });

  test('splits interleaved channels and keeps the rate', () => {
    const decoded = decodeWav(wav(1, 2, 44_100, 16, Buffer.from(new Int16Array([1, 2, 3, 4]).buffer)));
    expect(decoded.sampleRate).toBe(44_100);
    expect(decoded.channels.map((c) => [...c].map((v) => v * 32768))).toEqual([
      [1, 3],
      [2, 4],
    ]);
  });

  test('refuses what it cannot read with a WavFormatError that says what to give', () => {
    expect(() => decodeWav(Buffer.from('hello world!'), 'x.txt')).toThrow(WavFormatError);
    expect(() => decodeWav(wav(2, 1, 8000, 4, Buffer.alloc(4)), 'adpcm.wav')).toThrow(
      /adpcm\.wav: 4-bit format 2 audio is not supported; use 8\/16\/24\/32-bit PCM or 32-bit float/,
    );
  });

  test('encodeWav writes what decodeWav reads back', () => {
    const pcm = new Uint8Array(new Int16Array([0, 1000, -1000, 32767]).buffer);
    const decoded = decodeWav(encodeWav(pcm, 24_000));
    expect(decoded.sampleRate).toBe(24_000);
    expect([...(decoded.channels[0] ?? [])].map((v) => Math.round(v * 32768))).toEqual([
      0, 1000, -1000, 32767,
    ]);
  });
});

describe('toPcm16Mono', () => {
  const int16 = (pcm: Uint8Array) => [...new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2)];

  test('averages the channels', () => {
    const audio = { sampleRate: 24_000, channels: [Float32Array.of(0.5, 0), Float32Array.of(0.25, -0.5)] };
    expect(int16(toPcm16Mono(audio, 24_000))).toEqual([12288, -8192]);
  });

  test('keeps the duration when the rate changes (16 kHz → 24 kHz: 1.5× the samples; 48 kHz → 24 kHz: half)', () => {
    const second = (rate: number) => ({ sampleRate: rate, channels: [new Float32Array(rate).fill(0.25)] });
    expect(toPcm16Mono(second(16_000), 24_000).byteLength).toBe(48_000);
    expect(toPcm16Mono(second(48_000), 24_000).byteLength).toBe(48_000);
    // Past the filter's first few samples, a constant level stays that level.
    const settled = int16(toPcm16Mono(second(16_000), 24_000)).slice(100, -100);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(8190);
    expect(Math.max(...settled)).toBeLessThanOrEqual(8194);
  });

  const tone = (hz: number, rate: number) => ({
    sampleRate: rate,
    channels: [
      Float32Array.from({ length: rate / 10 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate)),
    ],
  });
  const level = (pcm: Uint8Array) => {
    const body = int16(pcm).slice(100, -100);
    return Math.sqrt(body.reduce((sum, s) => sum + s * s, 0) / body.length) / 16384;
  };

  test('48 kHz → 24 kHz keeps a 1 kHz tone and filters out a 15 kHz one instead of folding it to 9 kHz', () => {
    expect(level(toPcm16Mono(tone(1000, 48_000), 24_000))).toBeCloseTo(Math.SQRT1_2, 1);
    expect(level(toPcm16Mono(tone(15_000, 48_000), 24_000))).toBeLessThan(0.02);
  });
});
