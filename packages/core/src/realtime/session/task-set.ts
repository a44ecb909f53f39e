/**
 * Background tasks a session owns. Each gets an `AbortSignal`; `cancelAll()` aborts them and resolves
 * once every one of them has finished (settled), so cleanup in their `finally` blocks has run.
 */
export class TaskSet {
  /** Created on first use: an idle session runs no task. */
  #tasks: Map<Promise<void>, AbortController> | undefined;

  get size(): number {
    return this.#tasks?.size ?? 0;
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
        this.#tasks?.delete(task);
      });
    this.#tasks ??= new Map();
    this.#tasks.set(task, controller);
  }

  /** Aborts every task with `reason` and waits until all of them (and tasks they spawn meanwhile) settled. */
  async cancelAll(reason: unknown): Promise<void> {
    for (let tasks = this.#tasks; tasks !== undefined && tasks.size > 0; tasks = this.#tasks) {
      for (const controller of tasks.values()) controller.abort(reason);
      await Promise.allSettled([...tasks.keys()]);
    }
  }
}
