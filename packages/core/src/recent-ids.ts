/**
 * The most recent `limit` ids added, oldest forgotten first: a bounded record of things that ended, so that their
 * late events are still recognised without the record growing over a long session.
 */
export class RecentIds {
  readonly #limit: number;
  /** Created on first use: an idle session holds none. */
  #ids: Set<string> | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(id: string): void {
    this.#ids ??= new Set();
    this.#ids.delete(id);
    this.#ids.add(id);
    if (this.#ids.size > this.#limit) {
      for (const oldest of this.#ids) {
        this.#ids.delete(oldest);
        return;
      }
    }
  }

  has(id: string): boolean {
    return this.#ids?.has(id) ?? false;
  }

  clear(): void {
    this.#ids?.clear();
  }
}
