import type {
  RealtimeSession,
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionEventType,
} from '@parley/core';
import type { ManualClock } from '@parley/mock';
import type { RealtimeSimulator } from '@parley/simulator';
import { expect } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';

const SOCKET_EVENTS = ['open', 'message', 'error', 'close'] as const;

type Waiter = { match: (e: RealtimeSessionEvent) => boolean; count: number; resolve: () => void };

/** The session events a test recorded, with a way to wait for the n-th one of a kind. */
export class SessionEventLog {
  readonly events: RealtimeSessionEvent[] = [];
  readonly #waiters: Waiter[] = [];

  of<T extends RealtimeSessionEventType>(type: T): RealtimeSessionEventOf<T>[] {
    return this.events.filter((e) => e.type === type) as RealtimeSessionEventOf<T>[];
  }

  /** Resolves with the `count`-th event of `type` matching (already seen or future). */
  async waitFor<T extends RealtimeSessionEventType>(
    type: T,
    match: (event: RealtimeSessionEventOf<T>) => boolean = () => true,
    count = 1,
  ): Promise<RealtimeSessionEventOf<T>> {
    const fn = (e: RealtimeSessionEvent) => e.type === type && match(e as RealtimeSessionEventOf<T>);
    if (this.events.filter(fn).length < count) {
      await new Promise<void>((resolve) => this.#waiters.push({ match: fn, count, resolve }));
    }
    return this.events.filter(fn)[count - 1] as RealtimeSessionEventOf<T>;
  }

  protected record(event: RealtimeSessionEvent): void {
    this.events.push(event);
    for (const waiter of [...this.#waiters]) {
      if (this.events.filter(waiter.match).length >= waiter.count) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/** A `ws` WebSocket class that adds every socket it creates to `sockets`. */
export function trackedWebSocket(
  sockets: WsWebSocket[],
): new (
  ...args: ConstructorParameters<typeof WsWebSocket>
) => WsWebSocket {
  return class TrackedSocket extends WsWebSocket {
    constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
      super(...args);
      sockets.push(this);
    }
  };
}

/** Closes `session` and asserts nothing is left on either side: sockets, timers, socket listeners. */
export async function closeAndExpectNoSockets(
  session: RealtimeSession,
  sim: RealtimeSimulator,
  clock: ManualClock,
  sockets: readonly WsWebSocket[],
): Promise<void> {
  await session.close();
  await sim.waitForIdle();
  expect(session.status).toBe('closed');
  expect(sim.openConnections).toBe(0);
  expect(sim.openSockets).toBe(0);
  expect(clock.pendingTimers).toBe(0);
  expect(sockets.map((s) => s.readyState)).toEqual(sockets.map(() => WsWebSocket.CLOSED));
  expect(sockets.map((s) => SOCKET_EVENTS.reduce((n, type) => n + s.listenerCount(type), 0))).toEqual(
    sockets.map(() => 0),
  );
}
