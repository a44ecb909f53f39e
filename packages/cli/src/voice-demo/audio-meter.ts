import { PCM16_BYTES_PER_MS } from '@parley/core';

/**
 * Counts the assistant audio a session delivered, per message and per response, and lets the demo wait until a
 * message's audio reached a given size (so what it prints never depends on socket timing).
 */
export class AudioMeter {
  readonly #byItem = new Map<string, number>();
  readonly #byResponse = new Map<string, number>();
  #waiters: { itemId: string; bytes: number; resolve: () => void }[] = [];
  readonly #lastItem = new Map<string, string>();
  #responseWaiters: { responseId: string; bytes: number; resolve: (itemId: string) => void }[] = [];

  /** `bytesPerMs`: of the session's output audio format. */
  constructor(readonly bytesPerMs: number = PCM16_BYTES_PER_MS) {}

  /** Records one `audio` event. */
  add(responseId: string, itemId: string, bytes: number): void {
    this.#byItem.set(itemId, this.itemBytes(itemId) + bytes);
    this.#byResponse.set(responseId, (this.#byResponse.get(responseId) ?? 0) + bytes);
    this.#lastItem.set(responseId, itemId);
    this.#responseWaiters = this.#responseWaiters.filter((waiter) => {
      if (waiter.responseId !== responseId || (this.#byResponse.get(responseId) ?? 0) < waiter.bytes)
        return true;
      waiter.resolve(itemId);
      return false;
    });
    this.#waiters = this.#waiters.filter((waiter) => {
      if (waiter.itemId !== itemId || this.itemBytes(itemId) < waiter.bytes) return true;
      waiter.resolve();
      return false;
    });
  }

  /** The bytes received for a message. */
  itemBytes(itemId: string): number {
    return this.#byItem.get(itemId) ?? 0;
  }

  /** The milliseconds of audio received for a response. */
  responseMs(responseId: string): number {
    return (this.#byResponse.get(responseId) ?? 0) / this.bytesPerMs;
  }

  /** How many responses delivered audio. */
  spokenResponses(): number {
    return this.#byResponse.size;
  }

  /** The milliseconds of audio received in all. */
  totalMs(): number {
    let bytes = 0;
    for (const value of this.#byItem.values()) bytes += value;
    return bytes / this.bytesPerMs;
  }

  /** Resolves once `itemId` has at least `bytes` of audio. */
  reached(itemId: string, bytes: number): Promise<void> {
    if (this.itemBytes(itemId) >= bytes) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ itemId, bytes, resolve }));
  }

  /** Resolves with the message id once response `responseId` has at least `bytes` of audio. */
  responseReached(responseId: string, bytes: number): Promise<string> {
    const itemId = this.#lastItem.get(responseId);
    if (itemId !== undefined && (this.#byResponse.get(responseId) ?? 0) >= bytes)
      return Promise.resolve(itemId);
    return new Promise((resolve) => this.#responseWaiters.push({ responseId, bytes, resolve }));
  }
}
