import {
  type Agent,
  ParleyError,
  pcm16DurationMs,
  type RealtimeCommand,
  RealtimeSession,
  type RealtimeSessionEvent,
  type RealtimeSessionEventOf,
  type RealtimeSessionEventType,
  type RealtimeSessionOptions,
  UserError,
} from '@parley/core';
import { brand } from '@parley/core/internal';
import type { RealtimeHarness } from './harness.js';
import { ScenarioSkippedError } from './scenario.js';
import { SESSION_EVENT_TYPES } from './session-event-types.js';
import { within } from './within.js';

/** How long a scenario waits for something that should happen promptly. */
export const WAIT_MS = 3000;

/** A scenario step did not happen in time. */
export class ScenarioTimeoutError extends ParleyError {
  static {
    brand(ScenarioTimeoutError, 'conformance.ScenarioTimeoutError');
  }

  constructor(what: string, seen: string) {
    super('conformance_timeout', `Timed out after ${WAIT_MS} ms waiting for ${what}. Seen so far: ${seen}`);
  }
}

/** How an {@link EventRecorder} collects a session's events. */
export interface EventRecorderOptions {
  /**
   * `'iterator'` (the default): through the session's async iterator (`for await`), the path most apps take. Each
   * event is recorded a few microtasks after it was emitted. A disconnect with no reconnect coming ends the
   * session's iterators; the recorder opens a new one when it reads that `disconnected` status, so whatever the
   * session emits between the two is not recorded. `ended` resolves when the iterator ends.
   *
   * `'listeners'`: a `session.on` listener for every event type. Each event is recorded as it is emitted, and none
   * is missed across a disconnect: for a test that counts events at one moment and again after a cut. `ended`
   * resolves at the session's last event (`connection_status: closed`).
   */
  via?: 'iterator' | 'listeners';
}

/**
 * Everything a session emitted (collected through its async iterator, the public path, or its listeners), with a
 * way to wait for more. The one session-event recorder of Parley's tests.
 */
export class EventRecorder<TContext = unknown> {
  /** Every event so far, in order. */
  readonly events: RealtimeSessionEvent<TContext>[] = [];
  /** Resolves when the session's event stream ended (after `close()`). */
  readonly ended: Promise<void>;
  readonly #waiters = new Set<() => void>();

  constructor(session: RealtimeSession<TContext>, options: EventRecorderOptions = {}) {
    const via = options.via ?? 'iterator';
    if (via !== 'iterator' && via !== 'listeners') {
      throw new UserError(`EventRecorder's via is 'iterator' or 'listeners', not ${JSON.stringify(via)}.`);
    }
    this.ended = via === 'listeners' ? this.#listen(session) : this.#iterate(session);
  }

  #record(event: RealtimeSessionEvent<TContext>): void {
    this.events.push(event);
    for (const notify of [...this.#waiters]) notify();
  }

  #listen(session: RealtimeSession<TContext>): Promise<void> {
    if (session.status === 'closed') return Promise.resolve();
    return new Promise((resolve) => {
      for (const type of SESSION_EVENT_TYPES) {
        session.on(type, (event) => {
          this.#record(event);
          if (event.type === 'connection_status' && event.status === 'closed') resolve();
        });
      }
    });
  }

  async #iterate(session: RealtimeSession<TContext>): Promise<void> {
    let iterator = session[Symbol.asyncIterator]();
    // A disconnect with no reconnect coming ends the session's iterators; the recorder goes on with one it
    // opens on `disconnected` (before anyone waiting can react), so it also records a later `connect()`.
    let successor: AsyncIterator<RealtimeSessionEvent<TContext>> | undefined;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        if (!successor || session.status === 'closed') break;
        iterator = successor;
        successor = undefined;
        continue;
      }
      const event = next.value;
      if (successor && event.type !== 'agent_done') {
        void successor.return?.();
        successor = undefined;
      }
      if (event.type === 'connection_status' && event.status === 'disconnected') {
        successor = session[Symbol.asyncIterator]();
      }
      this.#record(event);
    }
    void successor?.return?.();
    for (const notify of [...this.#waiters]) notify();
  }

  /** The events of `type` so far, in order. */
  of<T extends RealtimeSessionEventType>(type: T): RealtimeSessionEventOf<T, TContext>[] {
    return this.events.filter((e): e is RealtimeSessionEventOf<T, TContext> => e.type === type);
  }

  /** The type of every event so far, in order. */
  types(): string[] {
    return this.events.map((e) => e.type);
  }

  /**
   * Resolves with the `count`-th event of `type` matching `where` (earlier events count); rejects after
   * `timeoutMs` (default {@link WAIT_MS}).
   */
  waitFor<T extends RealtimeSessionEventType>(
    type: T,
    where: (event: RealtimeSessionEventOf<T, TContext>) => boolean = () => true,
    count = 1,
    timeoutMs = WAIT_MS,
  ): Promise<RealtimeSessionEventOf<T, TContext>> {
    return this.waitUntil(() => this.of(type).filter(where)[count - 1], `${count} × ${type}`, timeoutMs);
  }

  /**
   * Resolves with what `found` returns once it returns something (checked now and after every event); rejects after
   * `timeoutMs` (default {@link WAIT_MS}) with `what` and the events seen.
   */
  waitUntil<R>(found: () => R | undefined, what: string, timeoutMs = WAIT_MS): Promise<R> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const result = found();
        if (result === undefined) return false;
        this.#waiters.delete(check);
        clearTimeout(timer);
        resolve(result);
        return true;
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new ScenarioTimeoutError(what, this.events.map((e) => e.type).join(', ') || 'none'));
      }, timeoutMs);
      if (!check()) this.#waiters.add(check);
    });
  }

  /** The assistant's words in a response: transcript deltas, or text deltas in text mode. */
  spokenText(responseId: string): string {
    return this.events
      .filter(
        (e): e is RealtimeSessionEventOf<'transcript_delta' | 'text_delta', TContext> =>
          (e.type === 'transcript_delta' || e.type === 'text_delta') && e.responseId === responseId,
      )
      .map((e) => e.delta)
      .join('');
  }
}

/** A session on the harness's model with its events recorded; close it with `session.close()`. */
export function openSession<TContext>(
  harness: RealtimeHarness,
  agent: Agent<TContext>,
  options: Omit<RealtimeSessionOptions<TContext>, 'model'> = {},
): { session: RealtimeSession<TContext>; events: EventRecorder<TContext> } {
  const session = new RealtimeSession(agent, { ...options, model: harness.model });
  return { session, events: new EventRecorder(session) };
}

/** Runs `body` with a fresh session and always closes it. */
export async function withSession<TContext>(
  harness: RealtimeHarness,
  agent: Agent<TContext>,
  body: (session: RealtimeSession<TContext>, events: EventRecorder<TContext>) => Promise<void>,
  options: Omit<RealtimeSessionOptions<TContext>, 'model'> = {},
): Promise<void> {
  const { session, events } = openSession(harness, agent, options);
  try {
    await body(session, events);
  } finally {
    await session.close();
  }
}

/** The commands of one type. */
export function commandsOf<T extends RealtimeCommand['type']>(
  commands: readonly RealtimeCommand[],
  type: T,
): Extract<RealtimeCommand, { type: T }>[] {
  return commands.filter((c): c is Extract<RealtimeCommand, { type: T }> => c.type === type);
}

/**
 * Settles like `promise`, or rejects with a {@link ScenarioTimeoutError} after {@link WAIT_MS}: for something a
 * scenario must see end (a `close()`, a `for await` loop, a request that must time out).
 */
export function settlesWithin<T>(promise: Promise<T>, what: string): Promise<T> {
  return within(promise, WAIT_MS, () => new ScenarioTimeoutError(what, 'it had not settled'));
}

/** A promise with its `resolve` and `reject` exposed, to hold a tool (or anything) until the test releases it. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A fresh {@link Deferred}: the one deferred helper of Parley's tests. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The ids of the messages whose audio a response delivered, in order. */
export function audioItemIds(events: EventRecorder, responseId: string): string[] {
  const ids = events
    .of('audio')
    .filter((e) => e.responseId === responseId)
    .map((e) => e.itemId);
  return [...new Set(ids)];
}

/** Milliseconds of audio a message delivered to the app. */
export function audioMsOf(events: EventRecorder, itemId: string): number {
  const bytes = events
    .of('audio')
    .filter((e) => e.itemId === itemId)
    .reduce((sum, e) => sum + e.data.byteLength, 0);
  return pcm16DurationMs(bytes);
}

/** The skip of a harness without `methods` although its model declares `recoverableErrors`. */
export function cannotReportErrors(harness: RealtimeHarness, methods: string): ScenarioSkippedError {
  return new ScenarioSkippedError(
    `the harness of provider "${harness.model.provider}" cannot report a recoverable error (no ${methods})`,
  );
}
