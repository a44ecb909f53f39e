import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Decoded audio: samples per channel as floats in [-1, 1]. */
export interface DecodedAudio {
  sampleRate: number;
  /** One array per channel, equal lengths. */
  channels: Float32Array[];
}

/** The file is not a WAV file this command can read. */
export class WavFormatError extends ParleyError {
  static {
    brand(WavFormatError, 'cli.WavFormatError');
  }

  constructor(message: string) {
    super('wav_format', message);
  }
}

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/** A WAV file (RIFF/WAVE) as PCM16 mono at `sampleRate`. */
export function encodeWav(pcm16: Uint8Array, sampleRate: number): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm16.byteLength, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(PCM, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm16.byteLength, 40);
  return new Uint8Array(Buffer.concat([header, pcm16]));
}

/** Reads a WAV file: 8/16/24/32-bit integer PCM or 32/64-bit float, any rate and channel count. */
export function decodeWav(bytes: Uint8Array, name = 'the file'): DecodedAudio {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    buffer.byteLength < 12 ||
    buffer.toString('ascii', 0, 4) !== 'RIFF' ||
    buffer.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new WavFormatError(`${name} is not a WAV file (no RIFF/WAVE header); give a .wav file.`);
  }
  let format: { tag: number; channels: number; sampleRate: number; bits: number } | undefined;
  let data: Buffer | undefined;
  for (let at = 12; at + 8 <= buffer.byteLength; ) {
    const id = buffer.toString('ascii', at, at + 4);
    const size = buffer.readUInt32LE(at + 4);
    const body = buffer.subarray(at + 8, Math.min(at + 8 + size, buffer.byteLength));
    if (id === 'fmt ' && body.byteLength >= 16) {
      let tag = body.readUInt16LE(0);
      if (tag === EXTENSIBLE && body.byteLength >= 26) tag = body.readUInt16LE(24);
      format = {
        tag,
        channels: body.readUInt16LE(2),
        sampleRate: body.readUInt32LE(4),
        bits: body.readUInt16LE(14),
      };
    } else if (id === 'data') {
      data = body;
    }
    at += 8 + size + (size % 2);
  }
  if (!format || !data) throw new WavFormatError(`${name} has no ${format ? 'data' : 'fmt'} chunk.`);
  const { tag, channels, sampleRate, bits } = format;
  const read = sampleReader(tag, bits);
  if (!read || channels < 1 || sampleRate < 1) {
    throw new WavFormatError(
      `${name}: ${bits}-bit ${tag === IEEE_FLOAT ? 'float' : `format ${tag}`} audio is not supported; ` +
        'use 8/16/24/32-bit PCM or 32-bit float.',
    );
  }
  const bytesPerFrame = (bits / 8) * channels;
  const frames = Math.floor(data.byteLength / bytesPerFrame);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channels; channel++) {
      (out[channel] as Float32Array)[frame] = read(data, frame * bytesPerFrame + channel * (bits / 8));
    }
  }
  return { sampleRate, channels: out };
}

function sampleReader(tag: number, bits: number): ((data: Buffer, at: number) => number) | undefined {
  if (tag === IEEE_FLOAT && bits === 32) return (d, at) => d.readFloatLE(at);
  if (tag === IEEE_FLOAT && bits === 64) return (d, at) => d.readDoubleLE(at);
  if (tag !== PCM) return undefined;
  if (bits === 8) return (d, at) => ((d[at] as number) - 128) / 128;
  if (bits === 16) return (d, at) => d.readInt16LE(at) / 32768;
  if (bits === 24) return (d, at) => d.readIntLE(at, 3) / 8388608;
  if (bits === 32) return (d, at) => d.readInt32LE(at) / 2147483648;
  return undefined;
}
