/** An opaque timer handle returned by {@link Clock.setTimeout}. */
export type TimerHandle = unknown;

/**
 * Time as Parley sees it. Everything timing-dependent (tool timeouts, response timeouts, playback
 * positions, reconnect backoff) reads this, so tests can inject a manual clock instead of sleeping.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences matter). */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock: `performance.now()` and the global timers. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** `true` when `value` has the three methods of a {@link Clock}: how options check an injected clock. */
export function isClock(value: unknown): value is Clock {
  const clock = value as Partial<Clock> | null | undefined;
  return (
    typeof clock?.now === 'function' &&
    typeof clock.setTimeout === 'function' &&
    typeof clock.clearTimeout === 'function'
  );
}

/**
 * The `clock` option every class that takes one checks in its constructor: the system clock when left out, else a
 * {@link Clock}; anything else throws `invalid(message)` (the caller's typed option error) saying what to pass, so a
 * wrong clock fails before connecting instead of at the first timer.
 */
export function resolveClockOption(value: unknown, invalid: (message: string) => Error): Clock {
  if (value === undefined) return systemClock;
  if (isClock(value)) return value;
  throw invalid(
    'clock must implement now(), setTimeout() and clearTimeout(): pass systemClock (@parley/core), a ManualClock ' +
      '(@parley/mock) in tests, or leave it out for the system clock.',
  );
}

/** Resolves after `ms` on `clock`, or rejects with the signal's reason once `signal` aborts. */
export function delay(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The longest delay a timer takes: Node and browsers treat a delay above 2^31 − 1 ms (about 24.8 days) as 1 ms.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A wait armed by {@link setLongTimeout}; `cancel()` is idempotent. */
export interface LongTimeout {
  cancel(): void;
}

/**
 * Calls `callback` after `ms` on `clock`, however far ahead: a wait longer than {@link MAX_TIMER_DELAY_MS}
 * re-arms in steps instead of overflowing. For every deadline a provider states (a session's expiry).
 */
export function setLongTimeout(clock: Clock, callback: () => void, ms: number): LongTimeout {
  let handle: TimerHandle | undefined;
  const arm = (remaining: number): void => {
    const step = Math.min(remaining, MAX_TIMER_DELAY_MS);
    handle = clock.setTimeout(() => {
      if (remaining > step) arm(remaining - step);
      else {
        handle = undefined;
        callback();
      }
    }, step);
  };
  arm(Math.max(0, ms));
  return {
    cancel() {
      if (handle === undefined) return;
      clock.clearTimeout(handle);
      handle = undefined;
    },
  };
}
