import type { Clock, TimerHandle } from '@parley/core';
import { MAX_TIMER_DELAY_MS } from '@parley/core/internal';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A {@link Clock} that moves only when told to, for tests that must not sleep. Timers fire in time
 * order during {@link ManualClock.advance}; microtasks queued by each callback settle before the next one.
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: Timer[] = [];

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /** As Node's timers do, a delay above 2^31 − 1 ms fires after 1 ms, so an overflowing wait shows in tests. */
  setTimeout(callback: () => void, ms: number): TimerHandle {
    const delay = ms > MAX_TIMER_DELAY_MS ? 1 : Math.max(0, ms);
    const timer = { id: this.#nextId++, at: this.#now + delay, callback };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** How many timers are waiting; a closed session or a settled run should leave none. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting promises settle between them. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await flushMicrotasks();
      const due = this.#timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.callback();
    }
    this.#now = target;
    await flushMicrotasks();
  }
}

/**
 * Waits `rounds` turns of the event loop (`setImmediate`), so queued promise continuations, and the
 * ones they queue in turn, have run.
 */
export async function flushMicrotasks(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
