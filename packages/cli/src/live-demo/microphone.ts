import type { RealtimeSession } from '@parley/core';

const FRAME_BYTES = 4800; // 100 ms of PCM16 24 kHz
const SILENCE = new Uint8Array(FRAME_BYTES);

/**
 * The caller's microphone for a provider whose clock is its input audio: one 100 ms frame in for every frame of
 * output (speech or silence), so the call runs faster than real time yet in step with the model. Queued speech
 * goes first; silence otherwise.
 */
export class Microphone {
  readonly #session: RealtimeSession;
  readonly #frames: Uint8Array[] = [];
  readonly #offs: (() => void)[] = [];
  #open = false;

  constructor(session: RealtimeSession) {
    this.#session = session;
  }

  /** Starts sending (a first frame now, then one per output frame). */
  start(): void {
    this.#open = true;
    this.#offs.push(this.#session.on('audio', this.#next), this.#session.on('output_silence', this.#next));
    this.#next();
  }

  /** Queues `pcm` (PCM16 24 kHz) to be said; returns its length in ms. */
  say(pcm: Uint8Array): number {
    for (let at = 0; at < pcm.byteLength; at += FRAME_BYTES)
      this.#frames.push(pcm.subarray(at, at + FRAME_BYTES));
    return pcm.byteLength / 48;
  }

  /** Stops sending. Idempotent. */
  stop(): void {
    this.#open = false;
    for (const off of this.#offs.splice(0)) off();
  }

  readonly #next = (): void => {
    if (!this.#open || this.#session.status !== 'connected') return;
    this.#session.sendAudio(this.#frames.shift() ?? SILENCE);
  };
}
