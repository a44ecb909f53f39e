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

const FRAME_MS = 10;
/** RMS level (0–1 of full scale) from which a frame is speech. */
const SPEECH_LEVEL = 0.05;

/** A voice activity transition, at a position in ms of audio received on the connection. */
export type VoiceTransition = { type: 'start'; atMs: number } | { type: 'end'; atMs: number };

/** Energy-based activity detection in 10 ms frames; activity ends after `silenceMs` of frames below the level. */
export class EnergyActivityDetector {
  #carry = new Uint8Array(0);
  #positionMs = 0;
  #active = false;
  #quietMs = 0;

  get active(): boolean {
    return this.#active;
  }

  push(audio: Uint8Array, rate: number, silenceMs: number): VoiceTransition[] {
    const frameBytes = FRAME_MS * pcmBytesPerMs(rate);
    let data = audio;
    if (this.#carry.length > 0) {
      data = new Uint8Array(this.#carry.length + audio.length);
      data.set(this.#carry);
      data.set(audio, this.#carry.length);
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const transitions: VoiceTransition[] = [];
    let offset = 0;
    for (; offset + frameBytes <= data.length; offset += frameBytes) {
      let sum = 0;
      for (let i = offset; i < offset + frameBytes; i += 2) {
        const s = view.getInt16(i, true) / 32768;
        sum += s * s;
      }
      const speech = Math.sqrt(sum / (frameBytes / 2)) >= SPEECH_LEVEL;
      this.#positionMs += FRAME_MS;
      if (speech) {
        this.#quietMs = 0;
        if (!this.#active) {
          this.#active = true;
          transitions.push({ type: 'start', atMs: this.#positionMs - FRAME_MS });
        }
      } else if (this.#active) {
        this.#quietMs += FRAME_MS;
        if (this.#quietMs >= silenceMs) {
          this.#active = false;
          transitions.push({ type: 'end', atMs: this.#positionMs });
        }
      }
    }
    this.#carry = data.slice(offset);
    return transitions;
  }

  /** The stream ended (`audioStreamEnd`): ongoing activity ends now. */
  flush(): VoiceTransition[] {
    this.#carry = new Uint8Array(0);
    if (!this.#active) return [];
    this.#active = false;
    return [{ type: 'end', atMs: this.#positionMs }];
  }
}
