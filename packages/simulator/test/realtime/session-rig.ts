import { EventRecorder } from '@parley/conformance';
import { type Agent, type RealtimeReconnectOptions, RealtimeSession } from '@parley/core';
import type { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import type { RealtimeSimulator, SimulatorConnection } from '@parley/simulator';
import { type HarnessTransport, TransportFaults } from '@parley/transport/testing';
import { expect } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { API_KEY } from './helpers.js';

const SOCKET_EVENTS = ['open', 'message', 'error', 'close'] as const;

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

const realReadyState = Object.getOwnPropertyDescriptor(WsWebSocket.prototype, 'readyState')?.get;

/**
 * The socket starts its closing handshake and the close never completes (no close acknowledgement from the peer):
 * it reports CLOSING, and `ws` drops every frame sent to it without a word, as it does in that state; frames from
 * the peer still arrive. Once it really closes it reports CLOSED again.
 */
export function closingWithoutAcknowledgement(socket: WsWebSocket): void {
  Object.defineProperty(socket, 'readyState', {
    configurable: true,
    get(this: WsWebSocket) {
      const real = realReadyState?.call(this) as number;
      return real === WsWebSocket.CLOSED ? real : WsWebSocket.CLOSING;
    },
  });
}

/** The ws sockets an adapter opens, and the model options that make it open them through `trackedWebSocket`. */
export interface TrackedSockets {
  readonly sockets: WsWebSocket[];
  readonly transport: Pick<HarnessTransport, 'WebSocket'> & Partial<HarnessTransport>;
}

/** Plain tracked `ws` sockets (they ping, as the adapter's own would). */
export function trackedSockets(): TrackedSockets {
  const sockets: WsWebSocket[] = [];
  return { sockets, transport: { WebSocket: trackedWebSocket(sockets) as HarnessTransport['WebSocket'] } };
}

/** Tracked sockets a test faults through `faults`. */
export interface FaultableSockets extends TrackedSockets {
  readonly faults: TransportFaults;
}

/**
 * Tracked `ws` sockets behind the transport faults of the conformance harnesses: a test fails the next write of a
 * frame (`faults.failNextWrite`) or makes the socket stop being open without a word (`faults.stopSilently`).
 */
export async function faultableSockets(): Promise<FaultableSockets> {
  const sockets: WsWebSocket[] = [];
  const faults = await TransportFaults.create(trackedWebSocket(sockets) as HarnessTransport['WebSocket']);
  return { sockets, transport: faults.transport, faults };
}

/**
 * The rig of the connection tests (reconnects, socket cuts): a reconnecting session (exact backoff) on an
 * `OpenAIRealtimeModel` over `sim`, one ManualClock for all three, and the ws sockets the adapter opened (through
 * `sockets`, where a test faults them); the session's events are recorded through its iterator from before
 * `connect()`.
 */
export class SimulatedSession extends EventRecorder {
  readonly sockets: WsWebSocket[];
  readonly session: RealtimeSession;

  constructor(
    readonly sim: RealtimeSimulator,
    readonly clock: ManualClock,
    agent: Agent,
    options: { reconnect?: RealtimeReconnectOptions; sockets?: TrackedSockets } = {},
  ) {
    const { sockets, transport } = options.sockets ?? trackedSockets();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, ...transport, clock });
    const session = new RealtimeSession(agent, {
      model,
      clock,
      reconnect: { jitter: 0, ...options.reconnect },
    });
    super(session);
    this.sockets = sockets;
    this.session = session;
  }

  /** Connects and returns the simulator's side of the connection. */
  async connect(): Promise<SimulatorConnection> {
    await this.session.connect();
    return this.sim.waitForConnection(this.sim.connections.length - 1);
  }
}
