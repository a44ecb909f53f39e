import { PCM16_BYTES_PER_MS } from '@parley/core';
import { SPEECH_AUDIO_OPTIONS } from './option-keys.js';

/**
 * Synthesized PCM16 24 kHz mono for the simulator: a 400 Hz tone (60 samples per period). "Speech" made with
 * {@link speechAudio} also carries its text in the low byte of each sample, so the simulator can "hear" and
 * transcribe what a test says while the energy stays speech-like.
 */

const PERIOD = 60;
const MAGIC = [0x50, 0x52, 0x4c, 0x59]; // "PRLY"

function tone(samples: number, amplitude: number, phase = 0): Int16Array {
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) {
    out[i] = Math.round(Math.sin((2 * Math.PI * ((i + phase) % PERIOD)) / PERIOD) * amplitude * 32767);
  }
  return out;
}

function toBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
  return bytes;
}

/** The model's voice: `ms` milliseconds of tone (amplitude 0.25). */
export function assistantAudio(ms: number, phaseSamples = 0): Uint8Array {
  return toBytes(tone(Math.round(ms * 24), 0.25, phaseSamples));
}

/** Options of {@link speechAudio}. */
export interface SpeechAudioOptions {
  /** Length of the utterance. Default 60 ms per character, at least 300 ms. */
  durationMs?: number;
  /** Amplitude 0–1. Default 0.3 (well above the simulator's VAD threshold). */
  amplitude?: number;
}

/**
 * PCM16 24 kHz "speech" for tests: a tone loud enough for the simulator's VAD, carrying `text` so the simulator
 * transcribes it (and its brain sees it as the user's words). Follow it with {@link silenceAudio} to end the turn.
 */
export function speechAudio(text: string, options: SpeechAudioOptions = {}): Uint8Array {
  SPEECH_AUDIO_OPTIONS.check(options);
  const payload = new TextEncoder().encode(text);
  const durationMs = options.durationMs ?? Math.max(300, text.length * 60);
  const samples = tone(Math.round(durationMs * 24), options.amplitude ?? 0.3);
  const framed = [...MAGIC, payload.length >> 8, payload.length & 0xff, ...payload];
  if (framed.length > samples.length)
    throw new RangeError('speechAudio: durationMs is too short for the text.');
  for (let i = 0; i < framed.length; i++) {
    const s = samples[i] as number;
    samples[i] = (s & ~0xff) | (framed[i] as number);
  }
  return toBytes(samples);
}

/** `ms` milliseconds of digital silence. */
export function silenceAudio(ms: number): Uint8Array {
  return new Uint8Array(Math.round(ms * PCM16_BYTES_PER_MS));
}

/** The texts embedded by {@link speechAudio} in a PCM16 buffer, in order. */
export function decodeSpeechTexts(pcm: Uint8Array): string[] {
  const texts: string[] = [];
  const samples = Math.floor(pcm.length / 2);
  // Low byte of sample i is pcm[2 * i] (little endian).
  const low = (i: number) => pcm[2 * i] as number;
  for (let i = 0; i + 6 <= samples; i++) {
    if (low(i) !== MAGIC[0] || low(i + 1) !== MAGIC[1] || low(i + 2) !== MAGIC[2] || low(i + 3) !== MAGIC[3])
      continue;
    const length = (low(i + 4) << 8) | low(i + 5);
    if (i + 6 + length > samples) continue;
    const bytes = new Uint8Array(length);
    for (let j = 0; j < length; j++) bytes[j] = low(i + 6 + j);
    texts.push(new TextDecoder().decode(bytes));
    i += 5 + length;
  }
  return texts;
}
