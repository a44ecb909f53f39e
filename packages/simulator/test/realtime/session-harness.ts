import {
  Agent,
  type RealtimeConnection,
  type RealtimeModel,
  RealtimeSession,
  type RealtimeSessionEventType,
  type RealtimeSessionOptions,
} from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import type { RealtimeSimulator, SimulatorConnection } from '@parley/simulator';
import { expect } from 'vitest';
import type { WebSocket as WsWebSocket } from 'ws';
import { API_KEY } from './helpers.js';
import { closeAndExpectNoSockets, SessionEventLog, trackedWebSocket } from './session-rig.js';

const RECORDED: readonly RealtimeSessionEventType[] = [
  'connection_status',
  'agent_started',
  'agent_done',
  'response_started',
  'response_done',
  'audio',
  'audio_done',
  'audio_interrupted',
  'transcript_delta',
  'text_delta',
  'error',
  'warning',
];

/**
 * A `RealtimeSession` on an `OpenAIRealtimeModel` pointed at a simulator, with everything a leak check needs
 * observable from outside: the ws sockets the adapter opened (their listener counts), the connections the model
 * handed out (their status, and how many subscriptions the session holds on them), one injected ManualClock for
 * the adapter and the session, and an event iterator started before `connect()`.
 */
export class SessionUnderTest extends SessionEventLog {
  readonly clock = new ManualClock();
  readonly session: RealtimeSession;
  /** The ws sockets the adapter created. */
  readonly sockets: WsWebSocket[] = [];
  /** The connections the model handed to the session. */
  readonly connections: RealtimeConnection[] = [];
  /** Subscriptions currently held on any connection. */
  subscriptions = 0;
  /** Everything the session's async iterator produced, resolved when the iterator ends. */
  readonly iterated: Promise<string[]>;

  constructor(
    readonly sim: RealtimeSimulator,
    agent: Agent = new Agent({ name: 'Faulty', instructions: 'Answer.' }),
    options: Omit<RealtimeSessionOptions, 'model' | 'clock'> = {},
  ) {
    super();
    const inner = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url,
      WebSocket: trackedWebSocket(this.sockets),
      clock: this.clock,
    });
    const model: RealtimeModel = {
      specificationVersion: inner.specificationVersion,
      provider: inner.provider,
      capabilities: inner.capabilities,
      connect: async (options) => {
        const connection = await inner.connect(options);
        this.connections.push(connection);
        return {
          get status() {
            return connection.status;
          },
          send: (command) => connection.send(command),
          close: () => connection.close(),
          onEvent: (listener) => {
            this.subscriptions++;
            const off = connection.onEvent(listener);
            let subscribed = true;
            return () => {
              if (subscribed) this.subscriptions--;
              subscribed = false;
              off();
            };
          },
        };
      },
    };
    // These tests are about what the failure of one connection looks like from the app; automatic reconnection
    // is tested on its own (reconnect.test.ts).
    this.session = new RealtimeSession(agent, { reconnect: false, ...options, model, clock: this.clock });
    for (const type of RECORDED) this.session.on(type, (event) => this.record(event));
    const iterator = this.session[Symbol.asyncIterator]();
    this.iterated = (async () => {
      const types: string[] = [];
      for (;;) {
        const next = await iterator.next();
        if (next.done) return types;
        types.push(next.value.type);
      }
    })();
  }

  /** Connects and returns the simulator's side of the connection. */
  async connect(): Promise<SimulatorConnection> {
    await this.session.connect();
    return this.sim.waitForConnection(this.sim.connections.length - 1);
  }

  /** The transcript of `responseId`, from its deltas. */
  transcript(responseId: string): string {
    return this.of('transcript_delta')
      .filter((e) => e.responseId === responseId)
      .map((e) => e.delta)
      .join('');
  }

  /** Sends a user message and resolves with the reply's response id and transcript once it is done. */
  async exchange(text: string): Promise<{ responseId: string; transcript: string }> {
    const before = this.of('response_done').length;
    this.session.sendMessage(text);
    const done = await this.waitFor('response_done', () => true, before + 1);
    expect(done.status).toBe('completed');
    return { responseId: done.responseId, transcript: this.transcript(done.responseId) };
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
