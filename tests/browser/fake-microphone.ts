import { writeFile } from 'node:fs/promises';
import { silenceAudio, speechAudio } from '@parley/simulator';

/** One stretch of what the fake microphone hears: words (the simulator's synthesized speech) or silence. */
export type MicrophonePart = { say: string; ms?: number } | { silenceMs: number };

/** Where each spoken part starts and ends in the file (ms). */
export interface MicrophoneScript {
  readonly spoken: readonly { text: string; startMs: number; endMs: number }[];
  readonly durationMs: number;
}

/**
 * Writes a WAV file (PCM16, 24 kHz, mono) of `parts` for Chromium's `--use-file-for-fake-audio-capture`: the
 * simulator's own synthesized speech, so its VAD hears each utterance start and stop.
 */
export async function writeMicrophoneWav(
  path: string,
  parts: readonly MicrophonePart[],
): Promise<MicrophoneScript> {
  const chunks: Uint8Array[] = [];
  const spoken: { text: string; startMs: number; endMs: number }[] = [];
  let ms = 0;
  for (const part of parts) {
    const pcm =
      'say' in part
        ? speechAudio(part.say, part.ms === undefined ? {} : { durationMs: part.ms })
        : silenceAudio(part.silenceMs);
    const partMs = pcm.byteLength / 48;
    if ('say' in part) spoken.push({ text: part.say, startMs: ms, endMs: ms + partMs });
    ms += partMs;
    chunks.push(pcm);
  }
  const dataBytes = chunks.reduce((sum, c) => sum + c.byteLength, 0);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(24_000, 24);
  header.writeUInt32LE(48_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  await writeFile(path, Buffer.concat([header, ...chunks]));
  return { spoken, durationMs: ms };
}
