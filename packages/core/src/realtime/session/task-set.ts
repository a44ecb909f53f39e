import type { Clock, TimerHandle } from '../../clock.js';
import { CANCELLED_TASK_GRACE_MS } from '../../constants.js';

/**
 * Background tasks a session owns. Each gets an `AbortSignal`; `cancelAll()` aborts them and waits until every
 * one of them has finished (settled), so cleanup in their `finally` blocks has run, for a bounded time: app code
 * that ignores its signal cannot hold a close or a reconnect.
 */
export class TaskSet {
  readonly #clock: Clock;
  readonly #graceMs: number;
  /** Created on first use: an idle session runs no task. */
  #tasks: Map<Promise<void>, AbortController> | undefined;

  constructor(clock: Clock, graceMs = CANCELLED_TASK_GRACE_MS) {
    this.#clock = clock;
    this.#graceMs = graceMs;
  }

  /** How long {@link cancelAll} waits for cancelled tasks, in ms. */
  get graceMs(): number {
    return this.#graceMs;
  }

  get size(): number {
    return this.#tasks?.size ?? 0;
  }

  /**
   * Starts `run` now; its rejection is reported to `onError` (never unhandled). Returns what aborts this one task
   * (the set still waits for it in {@link cancelAll}).
   */
  spawn(
    run: (signal: AbortSignal) => Promise<void>,
    onError: (error: unknown) => void,
  ): (reason: unknown) => void {
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
    return (reason) => controller.abort(reason);
  }

  /**
   * Aborts every task with `reason` and waits until all of them (and tasks they spawn meanwhile) settled, for at
   * most `graceMs` on the clock. Returns how many were still running then: they are forgotten, and their owners
   * ignore what they do afterwards (their signal aborted).
   */
  async cancelAll(reason: unknown): Promise<number> {
    if (this.size === 0) return 0;
    let timer: TimerHandle | undefined;
    let overdue = false;
    const grace = new Promise<void>((resolve) => {
      timer = this.#clock.setTimeout(() => {
        overdue = true;
        resolve();
      }, this.#graceMs);
    });
    try {
      for (let tasks = this.#tasks; tasks !== undefined && tasks.size > 0 && !overdue; tasks = this.#tasks) {
        for (const controller of tasks.values()) controller.abort(reason);
        await Promise.race([Promise.allSettled([...tasks.keys()]), grace]);
      }
    } finally {
      if (timer !== undefined) this.#clock.clearTimeout(timer);
    }
    const left = this.size;
    this.#tasks?.clear();
    return left;
  }
}
