import type { z } from 'zod';
import { brand } from '../brand.js';
import { RunResultBase } from './run-result.js';
import type { RunState } from './run-state.js';
import type { RunStreamEvent } from './stream-events.js';

/**
 * How to cancel a streamed run. `immediate`: abort the model call, tools and guardrails now (awaiting
 * them), then end the stream without error. `after_turn`: let the current turn finish and its items and
 * usage persist, then stop before the next model call; the state can be resumed.
 */
export type CancelMode = 'immediate' | 'after_turn';

/** The Runner's side of a streamed result. */
export interface StreamDriver<TContext> {
  push(event: RunStreamEvent<TContext>): void;
  /**
   * Resolves once every open iteration has taken every event so far and asks for more (at once when none
   * is open); rejects with the signal's reason when it aborts first.
   */
  caughtUp(signal: AbortSignal): Promise<void>;
  /** The run settled; `error` is its terminal failure, if any. */
  finish(error?: { error: unknown }): void;
}

let createStreamed: <TContext, TOutput extends z.ZodType | undefined>(
  state: RunState<TContext>,
  onCancel: (mode: CancelMode) => void,
) => { result: StreamedRunResult<TContext, TOutput>; driver: StreamDriver<TContext> };

/**
 * The result of `run(…, { stream: true })`: an async iterable of {@link RunStreamEvent}s, plus the same
 * fields as a `RunResult` (live while the run goes, fixed once it settles). The run goes on whether or
 * not the events are read; `completed` settles when everything the run started has settled. A terminal
 * error is thrown by the iteration after the queued events, and rejects `completed`.
 */
export class StreamedRunResult<
  TContext = unknown,
  TOutput extends z.ZodType | undefined = z.ZodType | undefined,
> extends RunResultBase<TContext, TOutput> {
  readonly #events: RunStreamEvent<TContext>[] = [];
  #wakers: (() => void)[] = [];
  /** Open iterations: how far each has read, and whether it is waiting for the next event. */
  readonly #readers = new Set<{ index: number; waiting: boolean }>();
  #caughtUpWaiters: { resolve: () => void; reject: (reason: unknown) => void }[] = [];
  /** The run's signal, watched from the first wait for the readers on (one listener per run, not per turn). */
  #watched: { signal: AbortSignal; onAbort: () => void } | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;
  #cancelMode: CancelMode | undefined;
  readonly #onCancel: (mode: CancelMode) => void;
  readonly #completed: Promise<void>;
  #resolveCompleted!: () => void;
  #rejectCompleted!: (error: unknown) => void;

  static {
    brand(StreamedRunResult, 'core.StreamedRunResult');
  }

  static {
    createStreamed = <TContext, TOutput extends z.ZodType | undefined>(
      state: RunState<TContext>,
      onCancel: (mode: CancelMode) => void,
    ) => {
      const result = new StreamedRunResult<TContext, TOutput>(state, onCancel);
      const driver: StreamDriver<TContext> = {
        push: (event) => result.#push(event),
        caughtUp: (signal) => result.#caughtUp(signal),
        finish: (error) => result.#finish(error),
      };
      return { result, driver };
    };
  }

  private constructor(state: RunState<TContext>, onCancel: (mode: CancelMode) => void) {
    super(state, false);
    this.#onCancel = onCancel;
    this.#completed = new Promise<void>((resolve, reject) => {
      this.#resolveCompleted = resolve;
      this.#rejectCompleted = reject;
    });
    // Iterating the events is an equally valid way to observe a failure.
    this.#completed.catch(() => {});
  }

  /** Settles when the run has settled: resolves on completion, pause or cancel; rejects with its error. */
  get completed(): Promise<void> {
    return this.#completed;
  }

  /** Whether the run has settled. */
  get isComplete(): boolean {
    return this.#ended;
  }

  /** The cancel mode requested with {@link StreamedRunResult.cancel}, if any. */
  get cancelled(): CancelMode | undefined {
    return this.#cancelMode;
  }

  /**
   * Cancels the run (see {@link CancelMode}). `immediate` may follow `after_turn` (to stop sooner); any other
   * repeated request, or one after the run settled, is ignored.
   */
  cancel(mode: CancelMode = 'immediate'): void {
    if (this.#ended || this.#cancelMode === 'immediate' || this.#cancelMode === mode) return;
    this.#cancelMode = mode;
    this.#onCancel(mode);
  }

  /**
   * The events from the start of the run; each iteration gets all of them. While an iteration is open the
   * run waits at each turn boundary until it has taken the turn's events and asks for the next one, so a
   * `cancel('after_turn')` issued while handling any event of a turn prevents the next turn. An open
   * iteration that stops asking holds the run: leave the loop with `break` (or call `cancel()`).
   */
  [Symbol.asyncIterator](): AsyncIterator<RunStreamEvent<TContext>> {
    const reader = { index: 0, waiting: false };
    let closed = false;
    this.#readers.add(reader);
    const close = () => {
      closed = true;
      this.#readers.delete(reader);
      this.#checkCaughtUp();
    };
    return {
      next: async (): Promise<IteratorResult<RunStreamEvent<TContext>>> => {
        for (;;) {
          if (closed) return { done: true, value: undefined };
          const event = this.#events[reader.index];
          if (event !== undefined) {
            reader.index++;
            reader.waiting = false;
            return { done: false, value: event };
          }
          if (this.#ended) {
            close();
            if (this.#failure) throw this.#failure.error;
            return { done: true, value: undefined };
          }
          reader.waiting = true;
          this.#checkCaughtUp();
          await new Promise<void>((resolve) => this.#wakers.push(resolve));
        }
      },
      return: async (): Promise<IteratorResult<RunStreamEvent<TContext>>> => {
        close();
        return { done: true, value: undefined };
      },
    };
  }

  /** The model's text deltas only, as they arrive. Ends (or throws) like the event iteration. */
  async *toTextStream(): AsyncIterable<string> {
    for await (const event of this) {
      if (event.type === 'raw_model_event' && event.data.type === 'text_delta') yield event.data.delta;
    }
  }

  #isCaughtUp(): boolean {
    for (const reader of this.#readers) {
      if (!reader.waiting || reader.index < this.#events.length) return false;
    }
    return true;
  }

  #checkCaughtUp(): void {
    if (this.#caughtUpWaiters.length === 0 || !this.#isCaughtUp()) return;
    const waiters = this.#caughtUpWaiters;
    this.#caughtUpWaiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  #caughtUp(signal: AbortSignal): Promise<void> {
    if (this.#isCaughtUp()) return CAUGHT_UP;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#watched?.signal !== signal) this.#watch(signal);
    return new Promise<void>((resolve, reject) => {
      this.#caughtUpWaiters.push({ resolve, reject });
    });
  }

  #watch(signal: AbortSignal): void {
    this.#unwatch();
    const onAbort = () => {
      const waiters = this.#caughtUpWaiters;
      this.#caughtUpWaiters = [];
      for (const waiter of waiters) waiter.reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.#watched = { signal, onAbort };
  }

  #unwatch(): void {
    this.#watched?.signal.removeEventListener('abort', this.#watched.onAbort);
    this.#watched = undefined;
  }

  #wake(): void {
    if (this.#wakers.length === 0) return;
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const wake of wakers) wake();
  }

  #push(event: RunStreamEvent<TContext>): void {
    if (this.#ended) return;
    this.#events.push(event);
    this.#wake();
  }

  #finish(failure?: { error: unknown }): void {
    if (this.#ended) return;
    this.#unwatch();
    this.settle();
    this.#failure = failure;
    this.#ended = true;
    this.#wake();
    if (failure) this.#rejectCompleted(failure.error);
    else this.#resolveCompleted();
  }
}

const CAUGHT_UP: Promise<void> = Promise.resolve();

/** Creates a streamed result and the Runner's handle on it. Not exported from the package. */
export function createStreamedRunResult<TContext, TOutput extends z.ZodType | undefined>(
  state: RunState<TContext>,
  onCancel: (mode: CancelMode) => void,
): { result: StreamedRunResult<TContext, TOutput>; driver: StreamDriver<TContext> } {
  return createStreamed(state, onCancel);
}
