import type { Clock, TimerHandle } from '@parley/core';
import { FAST_FORWARD_CLOCK_OPTIONS } from './option-keys.js';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/** Options of {@link FastForwardClock}. */
export interface FastForwardClockOptions {
  /** Event-loop turns (`setImmediate`) without a due timer firing before time jumps. Default 10. */
  idleTurns?: number;
  /** Timers further ahead than this are never reached by jumping (e.g. a 60-minute session limit). Default 10 s. */
  maxJumpMs?: number;
}

/**
 * A virtual {@link Clock} that jumps to its next timer as soon as the process has been idle for a few event-loop
 * turns, so a paced simulator streams in virtual time without the test sleeping. Everything that is already
 * underway (frames in flight on loopback, the client's reaction to them) happens before time moves, so a client
 * meets a paced response as it would meet the service with a fast network. Tests that must place an event at an
 * exact moment use `ManualClock` from `@parley/mock` instead.
 */
export class FastForwardClock implements Clock {
  readonly #idleTurns: number;
  readonly #maxJumpMs: number;
  #now = 0;
  #nextId = 1;
  #timers: Timer[] = [];
  #pumping = false;

  constructor(options: FastForwardClockOptions = {}) {
    FAST_FORWARD_CLOCK_OPTIONS.check(options);
    this.#idleTurns = options.idleTurns ?? 10;
    this.#maxJumpMs = options.maxJumpMs ?? 10_000;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), callback };
    this.#timers.push(timer);
    if (!this.#pumping) {
      this.#pumping = true;
      void this.#pump();
    }
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Timers waiting (including ones beyond the jump limit). */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  async #pump(): Promise<void> {
    for (;;) {
      for (let i = 0; i < this.#idleTurns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      const horizon = this.#now + this.#maxJumpMs;
      const due = this.#timers.filter((t) => t.at <= horizon).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.callback();
    }
    this.#pumping = false;
  }
}
