import { PCM16_BYTES_PER_MS } from '@parley/core';

/**
 * The agent's audio as the caller heard it: every message's chunks in arrival order, an interrupted message cut
 * where the caller stopped listening.
 */
export class CallRecording {
  readonly #chunks = new Map<string, Uint8Array[]>();
  readonly #heardBytes = new Map<string, number>();

  /** `bytesPerMs`: of the session's output audio format. */
  constructor(readonly bytesPerMs: number = PCM16_BYTES_PER_MS) {}

  /** Records one `audio` event. */
  add(itemId: string, data: Uint8Array): void {
    const chunks = this.#chunks.get(itemId);
    if (chunks) chunks.push(data);
    else this.#chunks.set(itemId, [data]);
  }

  /** The caller stopped listening to `itemId` after `ms`. */
  cut(itemId: string, ms: number): void {
    this.#heardBytes.set(itemId, Math.round(ms) * this.bytesPerMs);
  }

  /** The heard audio in the session's output format, messages one after another. */
  pcm(): Uint8Array {
    const parts: Uint8Array[] = [];
    for (const [itemId, chunks] of this.#chunks) {
      const whole = Buffer.concat(chunks);
      parts.push(whole.subarray(0, this.#heardBytes.get(itemId) ?? whole.byteLength));
    }
    return new Uint8Array(Buffer.concat(parts));
  }
}
