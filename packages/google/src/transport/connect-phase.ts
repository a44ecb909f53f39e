import { AbortError, type Clock, type TimerHandle } from '@parley/core';

/** How a connection settles its `connect()`. */
export interface ConnectSettle {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The connect phase of a realtime connection: the promise `connect()` waits on, bounded by a deadline and by the
 * caller's abort signal. The deadline and the signal hand their error to `onStop` (the connection closes its socket,
 * then rejects); `end()` releases the timer and the abort listener and returns the settle, once, on every path.
 */
export class ConnectPhase {
  readonly #clock: Clock;
  #settle: ConnectSettle | undefined;
  #timer: TimerHandle | undefined;
  #signal: AbortSignal | undefined;
  #onStop: ((error: Error) => void) | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Starts the phase: `timeoutError()` after `timeoutMs`, or an `AbortError` when `signal` aborts (at once if it
   * already has), goes to `onStop`.
   */
  wait(options: {
    timeoutMs: number;
    timeoutError: () => Error;
    signal: AbortSignal | undefined;
    onStop: (error: Error) => void;
  }): Promise<void> {
    const { timeoutMs, timeoutError, signal, onStop } = options;
    return new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
      this.#onStop = onStop;
      this.#timer = this.#clock.setTimeout(() => {
        this.#timer = undefined;
        onStop(timeoutError());
      }, timeoutMs);
      if (signal) {
        this.#signal = signal;
        if (signal.aborted) this.#onAbort();
        else signal.addEventListener('abort', this.#onAbort);
      }
    });
  }

  /** Whether `connect()` is still waiting. */
  get pending(): boolean {
    return this.#settle !== undefined;
  }

  /** Ends the phase (timer and abort listener released) and returns its settle; `undefined` once it has ended. */
  end(): ConnectSettle | undefined {
    const settle = this.#settle;
    this.#settle = undefined;
    this.#onStop = undefined;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#signal = undefined;
    return settle;
  }

  readonly #onAbort = (): void => {
    this.#onStop?.(new AbortError('connect() was aborted.', { cause: this.#signal?.reason }));
  };
}
