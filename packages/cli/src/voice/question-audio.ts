import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { PCM16_BYTES_PER_MS, PCM16_SAMPLE_RATE } from '@parley/core';
import { speechAudio } from '@parley/simulator';
import { toPcm16Mono } from '../audio/resample.js';
import { decodeWav } from '../audio/wav.js';

/** The caller's question as session audio (PCM16 24 kHz mono), and how to describe where it came from. */
export interface QuestionAudio {
  pcm: Uint8Array;
  description: string;
}

/** Reads a WAV file of any rate and channel count, resampled to the session format. */
export async function questionFromWav(path: string): Promise<QuestionAudio> {
  const decoded = decodeWav(await readFile(path), path);
  const pcm = toPcm16Mono(decoded, PCM16_SAMPLE_RATE);
  const channels = decoded.channels.length;
  const source = `${decoded.sampleRate} Hz ${channels === 1 ? 'mono' : `${channels} channels`}`;
  const converted =
    decoded.sampleRate === PCM16_SAMPLE_RATE && channels === 1 ? '' : ` → ${PCM16_SAMPLE_RATE} Hz mono`;
  return {
    pcm,
    description: `${basename(path)}: ${Math.round(pcm.byteLength / PCM16_BYTES_PER_MS)} ms, ${source}${converted}`,
  };
}

/** The simulator's synthetic speech for `text` (it carries the words, so the simulator "hears" them). */
export function questionFromText(text: string): QuestionAudio {
  const pcm = speechAudio(text);
  return { pcm, description: `"${text}", synthesized: ${pcm.byteLength / PCM16_BYTES_PER_MS} ms` };
}
