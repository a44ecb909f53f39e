import {
  type Agent,
  type RealtimeReconnectOptions,
  RealtimeSession,
  type RealtimeSessionEvent,
  type RealtimeSessionEventOf,
  type RealtimeSessionEventType,
} from '@parley/core';
import type { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import type { RealtimeSimulator, SimulatorConnection } from '@parley/simulator';
import { expect } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { API_KEY } from './helpers.js';

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

/** A `ws` WebSocket class, as the adapter takes it. */
type WsClass = new (...args: ConstructorParameters<typeof WsWebSocket>) => WsWebSocket;

/**
 * The rig of the connection tests (reconnects, socket cuts): a reconnecting session (exact backoff) on an
 * `OpenAIRealtimeModel` over `sim`, one ManualClock for all three, and the ws sockets the adapter opened (made by
 * `wrap`, where a test faults them); the session's events are recorded from before `connect()`.
 */
export class SimulatedSession extends SessionEventLog {
  readonly sockets: WsWebSocket[] = [];
  readonly session: RealtimeSession;

  constructor(
    readonly sim: RealtimeSimulator,
    readonly clock: ManualClock,
    agent: Agent,
    options: { reconnect?: RealtimeReconnectOptions; wrap?: (socket: WsClass) => WsClass } = {},
  ) {
    super();
    const tracked = trackedWebSocket(this.sockets);
    const model = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url,
      WebSocket: options.wrap ? options.wrap(tracked) : tracked,
      clock,
    });
    this.session = new RealtimeSession(agent, {
      model,
      clock,
      reconnect: { jitter: 0, ...options.reconnect },
    });
    const iterator = this.session[Symbol.asyncIterator]();
    void (async () => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        this.record(next.value);
      }
    })();
  }

  /** Connects and returns the simulator's side of the connection. */
  async connect(): Promise<SimulatorConnection> {
    await this.session.connect();
    return this.sim.waitForConnection(this.sim.connections.length - 1);
  }
}
