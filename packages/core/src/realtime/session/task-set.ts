/**
 * Background tasks a session owns. Each gets an `AbortSignal`; `cancelAll()` aborts them and resolves
 * once every one of them has finished (settled), so cleanup in their `finally` blocks has run.
 */
export class TaskSet {
  readonly #tasks = new Map<Promise<void>, AbortController>();

  get size(): number {
    return this.#tasks.size;
  }

  /** Starts `run` now; its rejection is reported to `onError` (never unhandled). */
  spawn(run: (signal: AbortSignal) => Promise<void>, onError: (error: unknown) => void): void {
    const controller = new AbortController();
    const task = Promise.resolve()
      .then(() => run(controller.signal))
      .catch((error) => {
        if (!controller.signal.aborted) onError(error);
      })
      .finally(() => {
        this.#tasks.delete(task);
      });
    this.#tasks.set(task, controller);
  }

  /** Aborts every task with `reason` and waits until all of them (and tasks they spawn meanwhile) settled. */
  async cancelAll(reason: unknown): Promise<void> {
    while (this.#tasks.size > 0) {
      for (const controller of this.#tasks.values()) controller.abort(reason);
      await Promise.allSettled([...this.#tasks.keys()]);
    }
  }
}
