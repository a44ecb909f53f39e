import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  type RealtimeConnection,
  type RealtimeModel,
  RealtimeSession,
  type RealtimeSessionOptions,
} from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import type { RealtimeSimulator, SimulatorConnection } from '@parley/simulator';
import { expect } from 'vitest';
import type { WebSocket as WsWebSocket } from 'ws';
import { API_KEY } from './helpers.js';
import { closeAndExpectNoSockets, trackedWebSocket } from './session-rig.js';

/**
 * A `RealtimeSession` on an `OpenAIRealtimeModel` pointed at a simulator, with everything a leak check needs
 * observable from outside: the ws sockets the adapter opened (their listener counts), the connections the model
 * handed out (their status, and how many subscriptions the session holds on them), one injected ManualClock for
 * the adapter and the session, and an event iterator started before `connect()`. The events are recorded by
 * listeners, as they are emitted: a test counts them at one moment and again after a cut, with none missed at a
 * disconnect.
 */
export class SessionUnderTest extends EventRecorder {
  readonly clock: ManualClock;
  readonly session: RealtimeSession;
  /** The ws sockets the adapter created. */
  readonly sockets: WsWebSocket[];
  /** The connections the model handed to the session. */
  readonly connections: RealtimeConnection[];
  readonly #held: { subscriptions: number };
  /** Everything the session's async iterator produced, resolved when the iterator ends. */
  readonly iterated: Promise<string[]>;

  constructor(
    readonly sim: RealtimeSimulator,
    agent: Agent = new Agent({ name: 'Faulty', instructions: 'Answer.' }),
    options: Omit<RealtimeSessionOptions, 'model' | 'clock'> = {},
  ) {
    const clock = new ManualClock();
    const sockets: WsWebSocket[] = [];
    const connections: RealtimeConnection[] = [];
    const held = { subscriptions: 0 };
    const model = countingModel(
      new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, WebSocket: trackedWebSocket(sockets), clock }),
      connections,
      held,
    );
    // These tests are about what the failure of one connection looks like from the app; automatic reconnection
    // is tested on its own (reconnect.test.ts).
    const session = new RealtimeSession(agent, { reconnect: false, ...options, model, clock });
    super(session, { via: 'listeners' });
    this.clock = clock;
    this.sockets = sockets;
    this.connections = connections;
    this.#held = held;
    this.session = session;
    const iterator = session[Symbol.asyncIterator]();
    this.iterated = (async () => {
      const types: string[] = [];
      for (;;) {
        const next = await iterator.next();
        if (next.done) return types;
        types.push(next.value.type);
      }
    })();
  }

  /** Subscriptions currently held on any connection. */
  get subscriptions(): number {
    return this.#held.subscriptions;
  }

  /** Connects and returns the simulator's side of the connection. */
  async connect(): Promise<SimulatorConnection> {
    await this.session.connect();
    return this.sim.waitForConnection(this.sim.connections.length - 1);
  }

  /** Sends a user message and resolves with the reply's response id and transcript once it is done. */
  async exchange(text: string): Promise<{ responseId: string; transcript: string }> {
    const before = this.of('response_done').length;
    this.session.sendMessage(text);
    const done = await this.waitFor('response_done', () => true, before + 1);
    expect(done.status).toBe('completed');
    return { responseId: done.responseId, transcript: this.spokenText(done.responseId) };
  }

  /**
   * Closes the session and asserts that nothing is left: no socket on either side, no timer, no subscription on
   * a connection, no listener on a socket, closed connections, an ended iterator.
   */
  async closeAndExpectReleased(): Promise<void> {
    await closeAndExpectNoSockets(this.session, this.sim, this.clock, this.sockets);
    expect(this.subscriptions).toBe(0);
    expect(this.connections.map((c) => c.status)).toEqual(this.connections.map(() => 'closed'));
    const types = await this.iterated;
    // The iterator ended at close (`connection_status`), or earlier at a disconnect with no reconnect (`agent_done`).
    expect(['connection_status', 'agent_done']).toContain(types.at(-1));
    expect(this.events.at(-1)).toEqual({ type: 'connection_status', status: 'closed' });
    // The session takes nothing more: a closed session refuses work with a typed error.
    expect(() => this.session.sendMessage('anyone?')).toThrow(
      expect.objectContaining({ code: 'session_closed' }),
    );
  }
}

/** `inner`, recording the connections it hands out and counting the subscriptions held on them. */
function countingModel(
  inner: RealtimeModel,
  connections: RealtimeConnection[],
  held: { subscriptions: number },
): RealtimeModel {
  return {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    capabilities: inner.capabilities,
    connect: async (options) => {
      const connection = await inner.connect(options);
      connections.push(connection);
      return {
        get status() {
          return connection.status;
        },
        send: (command) => connection.send(command),
        close: () => connection.close(),
        onEvent: (listener) => {
          held.subscriptions++;
          const off = connection.onEvent(listener);
          let subscribed = true;
          return () => {
            if (subscribed) held.subscriptions--;
            subscribed = false;
            off();
          };
        },
      };
    },
  };
}
