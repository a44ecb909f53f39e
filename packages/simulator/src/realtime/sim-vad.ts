import { PCM16_BYTES_PER_MS } from '@parley/core';
import type { WireTurnDetection } from '@parley/openai/wire';

const FRAME_MS = 10;
const FRAME_BYTES = FRAME_MS * PCM16_BYTES_PER_MS;

/** What the VAD saw in the audio it was given. Positions are ms since the first appended byte of the session. */
export type VadTransition = { type: 'start'; audioStartMs: number } | { type: 'stop'; audioEndMs: number };

/**
 * Energy-based voice activity detection on PCM16 24 kHz, in 10 ms frames: a frame is speech when its RMS level
 * (0–1 of full scale) is at least `threshold / 10` (0.05 for the default 0.5). Speech stops after
 * `silence_duration_ms` of non-speech frames. `semantic_vad` behaves as server VAD with 500 ms of silence.
 */
export class EnergyVad {
  #carry = new Uint8Array(0);
  #processedMs = 0;
  #speaking = false;
  #silenceMs = 0;

  /** Feeds appended audio; returns the transitions it caused, in order. */
  push(audio: Uint8Array, config: WireTurnDetection): VadTransition[] {
    const transitions: VadTransition[] = [];
    let data = audio;
    if (this.#carry.length > 0) {
      data = new Uint8Array(this.#carry.length + audio.length);
      data.set(this.#carry);
      data.set(audio, this.#carry.length);
    }
    const threshold = (config.type === 'server_vad' ? (config.threshold ?? 0.5) : 0.5) / 10;
    const silenceMs = config.type === 'server_vad' ? (config.silence_duration_ms ?? 200) : 500;
    const prefixMs = config.type === 'server_vad' ? (config.prefix_padding_ms ?? 300) : 300;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let offset = 0;
    for (; offset + FRAME_BYTES <= data.length; offset += FRAME_BYTES) {
      let sum = 0;
      for (let i = offset; i < offset + FRAME_BYTES; i += 2) {
        const s = view.getInt16(i, true) / 32768;
        sum += s * s;
      }
      const speech = Math.sqrt(sum / (FRAME_BYTES / 2)) >= threshold;
      const frameStart = this.#processedMs;
      this.#processedMs += FRAME_MS;
      if (!this.#speaking) {
        if (speech) {
          this.#speaking = true;
          this.#silenceMs = 0;
          transitions.push({ type: 'start', audioStartMs: Math.max(0, frameStart - prefixMs) });
        }
      } else if (speech) {
        this.#silenceMs = 0;
      } else {
        this.#silenceMs += FRAME_MS;
        if (this.#silenceMs >= silenceMs) {
          this.#speaking = false;
          transitions.push({ type: 'stop', audioEndMs: this.#processedMs });
        }
      }
    }
    this.#carry = data.slice(offset);
    return transitions;
  }

  /** `true` between a start and its stop. */
  get speaking(): boolean {
    return this.#speaking;
  }

  /** Forgets a pending utterance (after `input_audio_buffer.clear`). */
  reset(): void {
    this.#speaking = false;
    this.#silenceMs = 0;
  }
}
