/**
 * Keys remembered for `ttlMs` each, at most `max` of them (the oldest are forgotten first). Insertion order is
 * arrival order, so expiry only ever looks at the front.
 */
export class BoundedMemory {
  readonly #seen = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #max: number;

  constructor(ttlMs: number, max: number) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  /** Remembers `key` at `now`; `false` when it was already remembered (then nothing changes). */
  claim(key: string, now: number): boolean {
    this.#forget(now);
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, now);
    if (this.#seen.size > this.#max) this.#seen.delete(this.#seen.keys().next().value as string);
    return true;
  }

  has(key: string, now: number): boolean {
    this.#forget(now);
    return this.#seen.has(key);
  }

  #forget(now: number): void {
    for (const [key, at] of this.#seen) {
      if (now - at < this.#ttlMs) break;
      this.#seen.delete(key);
    }
  }
}
