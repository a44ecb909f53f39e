import { bytesPerMs } from '../shared/audio-codec.js';
import { speechAudio } from '../shared/sim-audio.js';

/**
 * What the Gemini simulator hears: PCM16 mono at the rate its MIME type names (16 kHz by default). "Speech" made with
 * {@link geminiSpeech} carries its text (as the OpenAI simulators' speech does), so the simulator transcribes what a
 * test says; audio that carries none is transcribed from the simulator's `hear` queue.
 */

/** Bytes per millisecond of PCM16 mono at `rate`. */
function pcmBytesPerMs(rate: number): number {
  return bytesPerMs({ type: 'audio/pcm', rate });
}

/** PCM16 16 kHz "speech" carrying `text` (default 60 ms per character, at least 300 ms). */
export function geminiSpeech(text: string, durationMs = Math.max(300, text.length * 60)): Uint8Array {
  // speechAudio writes 24 samples per millisecond; two thirds of the duration is the same sample count at 16 kHz.
  return speechAudio(text, { durationMs: (durationMs * 2) / 3 });
}

/** `ms` milliseconds of PCM16 16 kHz silence. */
export function geminiSilence(ms: number): Uint8Array {
  return new Uint8Array(Math.round(ms * pcmBytesPerMs(16000)));
}
