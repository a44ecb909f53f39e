import type {
  RealtimeSession,
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionEventType,
} from '@parley/core';
import { flushMicrotasks } from '@parley/mock';

/** Everything a session emits, collected through its async iterator (the public path). */
export interface EventLog {
  readonly events: RealtimeSessionEvent[];
  of<T extends RealtimeSessionEventType>(type: T): RealtimeSessionEventOf<T>[];
  types(): string[];
  /** Resolves when the session's iterator ended (after close). */
  readonly ended: Promise<void>;
}

export function recordEvents(session: RealtimeSession<never> | RealtimeSession): EventLog {
  const events: RealtimeSessionEvent[] = [];
  const iterator = (session as RealtimeSession)[Symbol.asyncIterator]();
  const ended = (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      events.push(next.value);
    }
  })();
  return {
    events,
    of: <T extends RealtimeSessionEventType>(type: T) =>
      events.filter((e): e is RealtimeSessionEventOf<T> => e.type === type),
    types: () => events.map((e) => e.type),
    ended,
  };
}

/** Lets every queued event and promise continuation run (the mock delivers events in microtasks). */
export const settle = () => flushMicrotasks();

/** A promise with its resolve/reject exposed, to hold a tool until the test releases it. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
