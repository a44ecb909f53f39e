import type { z } from 'zod';
import { brand } from '../brand.js';
import { UserError } from '../errors.js';
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

type EventResult<TContext> = IteratorResult<RunStreamEvent<TContext>>;

/** The open iteration of the events. */
interface Reader<TContext> {
  closed: boolean;
  /**
   * Its pending `next()` calls. There are some only while the queue is empty: a new event goes straight to the
   * first of them.
   */
  readonly waiters: { resolve(result: EventResult<TContext>): void; reject(error: unknown): void }[];
}

const DONE = (): IteratorResult<never> => ({ done: true, value: undefined });

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
  /** Events not yet delivered: each event is delivered once. */
  readonly #queue: RunStreamEvent<TContext>[] = [];
  /** The open iteration, if any (one at a time). */
  #reader: Reader<TContext> | undefined;
  #caughtUpWaiters: { resolve: () => void; reject: (reason: unknown) => void }[] = [];
  /** The run's signal, watched from the first wait for the readers on (one listener per run, not per turn). */
  #watched: { signal: AbortSignal; onAbort: () => void } | undefined;
  #ended = false;
  #deliveryStopped = false;
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
   * repeated request, or one after the run settled, changes nothing of the run — but `immediate` always stops
   * the delivery of events not yet delivered.
   */
  cancel(mode: CancelMode = 'immediate'): void {
    if (mode === 'immediate') this.#stopDelivery();
    if (this.#ended || this.#cancelMode === 'immediate' || this.#cancelMode === mode) return;
    this.#cancelMode = mode;
    this.#onCancel(mode);
  }

  /**
   * An immediate cancel, even one after the run settled: nothing not yet delivered is delivered, and the
   * open iteration ends.
   */
  #stopDelivery(): void {
    this.#deliveryStopped = true;
    this.#queue.length = 0;
    if (this.#reader) this.#close(this.#reader);
  }

  /**
   * The run's events, each delivered once: the first iteration starts with the first event, a later one
   * continues where the previous one stopped. One iteration at a time: opening a second while one is open
   * throws a {@link UserError} (`stream_already_iterated`). After `cancel('immediate')` nothing not yet
   * delivered is delivered (an iteration opened before the first event gets none); after
   * `cancel('after_turn')` the current turn's events still come. While an iteration is open the run waits at
   * each turn boundary until it has taken the turn's events and asks for the next one, so a
   * `cancel('after_turn')` issued while handling any event of a turn prevents the next turn. An open
   * iteration that stops asking holds the run: leave the loop with `break` (or call `cancel()`).
   */
  [Symbol.asyncIterator](): AsyncIterator<RunStreamEvent<TContext>> {
    if (this.#reader)
      throw new UserError(
        "A streamed run's events are delivered once, to one iteration at a time: leave the open loop (break) before iterating again.",
        { code: 'stream_already_iterated' },
      );
    const reader: Reader<TContext> = { closed: false, waiters: [] };
    this.#reader = reader;
    return {
      next: () => this.#next(reader),
      return: () => {
        this.#close(reader);
        return Promise.resolve(DONE());
      },
    };
  }

  #next(reader: Reader<TContext>): Promise<EventResult<TContext>> {
    if (reader.closed) return Promise.resolve(DONE());
    // With a `next()` still pending, this one waits for the event after that one's.
    if (reader.waiters.length === 0) {
      const event = this.#queue.shift();
      if (event !== undefined) return Promise.resolve({ done: false, value: event });
      if (this.#ended) {
        this.#close(reader);
        return this.#failure ? Promise.reject(this.#failure.error) : Promise.resolve(DONE());
      }
    }
    return new Promise<EventResult<TContext>>((resolve, reject) => {
      reader.waiters.push({ resolve, reject });
      this.#checkCaughtUp();
    });
  }

  /** Ends an iteration: its pending `next()` calls are done. */
  #close(reader: Reader<TContext>): void {
    if (reader.closed) return;
    reader.closed = true;
    if (this.#reader === reader) this.#reader = undefined;
    for (const waiter of reader.waiters.splice(0)) waiter.resolve(DONE());
    this.#checkCaughtUp();
  }

  /** The model's text deltas only, as they arrive. Ends (or throws) like the event iteration. */
  async *toTextStream(): AsyncIterable<string> {
    for await (const event of this) {
      if (event.type === 'raw_model_event' && event.data.type === 'text_delta') yield event.data.delta;
    }
  }

  #isCaughtUp(): boolean {
    return this.#reader === undefined || this.#reader.waiters.length > 0;
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

  #push(event: RunStreamEvent<TContext>): void {
    if (this.#ended || this.#deliveryStopped) return;
    const waiter = this.#reader?.waiters.shift();
    if (waiter) waiter.resolve({ done: false, value: event });
    else this.#queue.push(event);
  }

  #finish(failure?: { error: unknown }): void {
    if (this.#ended) return;
    this.#unwatch();
    this.settle();
    this.#failure = failure;
    this.#ended = true;
    // A waiting iteration ends now: its first pending `next()` gets the failure, if any.
    const reader = this.#reader;
    const first = reader?.waiters.shift();
    if (reader && first) {
      if (failure) first.reject(failure.error);
      else first.resolve(DONE());
      this.#close(reader);
    }
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
