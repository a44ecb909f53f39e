import { readFile, writeFile } from 'node:fs/promises';

/** What the e2e tests check of a WAV file (RIFF/WAVE, PCM): its format, length and loudness. */
export interface WavFacts {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  durationMs: number;
  /** Root mean square of the samples, 0–1. */
  rms: number;
}

/** Reads a 16-bit PCM WAV file with the canonical 44-byte header. */
export async function readWav(path: string): Promise<WavFacts> {
  const bytes = await readFile(path);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error(`${path} is not RIFF/WAVE`);
  if (bytes.toString('ascii', 12, 16) !== 'fmt ' || bytes.toString('ascii', 36, 40) !== 'data')
    throw new Error(`${path} has no canonical fmt/data chunks`);
  if (bytes.readUInt32LE(4) !== bytes.byteLength - 8) throw new Error(`${path}: RIFF size is wrong`);
  const dataBytes = bytes.readUInt32LE(40);
  if (dataBytes !== bytes.byteLength - 44) throw new Error(`${path}: data size is wrong`);
  const channels = bytes.readUInt16LE(22);
  const sampleRate = bytes.readUInt32LE(24);
  const bitsPerSample = bytes.readUInt16LE(34);
  let sum = 0;
  const samples = dataBytes / 2;
  for (let i = 0; i < samples; i++) sum += (bytes.readInt16LE(44 + i * 2) / 32768) ** 2;
  return {
    format: bytes.readUInt16LE(20),
    channels,
    sampleRate,
    bitsPerSample,
    durationMs: (dataBytes / (channels * (bitsPerSample / 8)) / sampleRate) * 1000,
    rms: samples === 0 ? 0 : Math.sqrt(sum / samples),
  };
}

/** Writes 16-bit PCM WAV: one Int16Array per channel, equal lengths. */
export async function writeWav(
  path: string,
  channels: readonly Int16Array[],
  sampleRate: number,
): Promise<void> {
  const frames = channels[0]?.length ?? 0;
  const data = Buffer.alloc(frames * channels.length * 2);
  for (let i = 0; i < frames; i++)
    for (const [c, channel] of channels.entries())
      data.writeInt16LE(channel[i] as number, (i * channels.length + c) * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.byteLength, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels.length, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels.length * 2, 28);
  header.writeUInt16LE(channels.length * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.byteLength, 40);
  await writeFile(path, Buffer.concat([header, data]));
}
