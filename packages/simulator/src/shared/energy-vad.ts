import { bytesPerMs } from './audio-codec.js';

const FRAME_MS = 10;

/** A voice activity transition, at a position in ms of the audio the detector was given. */
export type VoiceTransition = { type: 'start'; atMs: number } | { type: 'end'; atMs: number };

/** How {@link EnergyVad} listens. */
export interface EnergyVadSettings {
  /** The sample rate of the PCM16 mono audio pushed. */
  rate: number;
  /** RMS level (0–1 of full scale) from which a frame is speech. */
  level: number;
  /** Activity ends after this many ms of frames below the level. */
  silenceMs: number;
}

/**
 * The simulators' voice activity detection: energy-based, on PCM16 mono in 10 ms frames. A frame is speech when its
 * RMS level reaches `level`; activity starts at the first speech frame (`atMs`: where that frame starts) and ends
 * once `silenceMs` of frames below it followed (`atMs`: the end of the last frame).
 */
export class EnergyVad {
  #carry = new Uint8Array(0);
  #positionMs = 0;
  #active = false;
  #quietMs = 0;

  /** `true` between a start and its end. */
  get active(): boolean {
    return this.#active;
  }

  /** Feeds audio; returns the transitions it caused, in order. */
  push(audio: Uint8Array, settings: EnergyVadSettings): VoiceTransition[] {
    const frameBytes = FRAME_MS * bytesPerMs({ type: 'audio/pcm', rate: settings.rate });
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
      const speech = Math.sqrt(sum / (frameBytes / 2)) >= settings.level;
      this.#positionMs += FRAME_MS;
      if (speech) {
        this.#quietMs = 0;
        if (!this.#active) {
          this.#active = true;
          transitions.push({ type: 'start', atMs: this.#positionMs - FRAME_MS });
        }
      } else if (this.#active) {
        this.#quietMs += FRAME_MS;
        if (this.#quietMs >= settings.silenceMs) {
          this.#active = false;
          transitions.push({ type: 'end', atMs: this.#positionMs });
        }
      }
    }
    this.#carry = data.slice(offset);
    return transitions;
  }

  /** Forgets a pending utterance (its audio was cleared): no end is reported for it. */
  reset(): void {
    this.#active = false;
    this.#quietMs = 0;
  }

  /** The stream ended: the partial frame is dropped, and ongoing activity ends now. */
  flush(): VoiceTransition[] {
    this.#carry = new Uint8Array(0);
    if (!this.#active) return [];
    this.#active = false;
    return [{ type: 'end', atMs: this.#positionMs }];
  }
}
