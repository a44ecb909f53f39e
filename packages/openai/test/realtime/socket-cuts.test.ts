import { Agent, RealtimeSession, SessionNotConnectedError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import type { RealtimeSimulator, SimulatedConnection } from '@parley/openai/testing';
import { describe, expect, test } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { API_KEY, simulator } from './helpers.js';
import { closeAndExpectNoSockets, SessionEventLog, trackedWebSocket } from './session-rig.js';

/**
 * A reconnecting session on an `OpenAIRealtimeModel` over the simulator, one ManualClock for all three, and the ws
 * sockets the adapter opened.
 */
class CutRig extends SessionEventLog {
  readonly clock = new ManualClock();
  readonly sockets: WsWebSocket[] = [];
  readonly session: RealtimeSession;

  constructor(readonly sim: RealtimeSimulator) {
    super();
    const model = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url,
      WebSocket: trackedWebSocket(this.sockets),
      clock: this.clock,
    });
    this.session = new RealtimeSession(new Agent({ name: 'Listener', instructions: 'Answer.' }), {
      model,
      clock: this.clock,
      reconnect: { jitter: 0 },
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

  static async start(): Promise<CutRig> {
    return new CutRig(await simulator({ clock: new ManualClock(), pace: 'instant' }));
  }

  async connect(): Promise<SimulatedConnection> {
    await this.session.connect();
    return this.sim.waitForConnection(this.sim.connections.length - 1);
  }

  async closeAndExpectReleased(): Promise<void> {
    await closeAndExpectNoSockets(this.session, this.sim, this.clock, this.sockets);
  }
}

const realReadyState = Object.getOwnPropertyDescriptor(WsWebSocket.prototype, 'readyState')?.get;

/**
 * The socket starts its closing handshake and the close never completes (no close acknowledgement from the peer):
 * it reports CLOSING, fires no event, and `ws` drops every frame sent to it without a word, as it does in that
 * state. Once it really closes it reports CLOSED again.
 */
function closingWithoutAcknowledgement(socket: WsWebSocket): void {
  Object.defineProperty(socket, 'readyState', {
    configurable: true,
    get(this: WsWebSocket) {
      const real = realReadyState?.call(this) as number;
      return real === WsWebSocket.CLOSED ? real : WsWebSocket.CLOSING;
    },
  });
}

const userTexts = (server: SimulatedConnection) =>
  (server.clientEvents as { type?: string; item?: { content?: { text?: string }[] } }[])
    .filter((e) => e.type === 'conversation.item.create')
    .map((e) => e.item?.content?.[0]?.text);

describe('a socket that stops being open is a disconnect at once', () => {
  test('closing with no close acknowledgement: the next send is refused with a typed error and the session reconnects', async () => {
    const rig = await CutRig.start();
    const first = await rig.connect();
    const socket = rig.sockets[0] as WsWebSocket;

    closingWithoutAcknowledgement(socket);
    let refused: unknown;
    try {
      rig.session.sendMessage('Are you there?');
    } catch (error) {
      refused = error;
    }

    // Refused, not handed to a socket that drops it.
    expect(refused).toBeInstanceOf(SessionNotConnectedError);
    expect(refused).toMatchObject({ code: 'session_not_connected' });
    const errors = await rig.waitFor('error');
    expect(errors).toMatchObject({ source: 'session', code: 'connection_lost' });
    // The disconnect path at once: no waiting for a close event that never comes.
    const reconnecting = await rig.waitFor('reconnecting');
    expect(reconnecting).toMatchObject({ reason: 'connection_lost', attempt: 1, delayMs: 0 });
    expect(reconnecting.detail).toContain('socket stopped being open');
    expect(() => rig.session.sendMessage('And now?')).toThrow(SessionNotConnectedError);
    // The stuck socket was released rather than left to its closing handshake.
    await first.closed;
    await rig.waitFor('reconnected');
    expect(rig.session.status).toBe('connected');
    expect(userTexts(first)).toEqual([]);

    const second = rig.sim.connections[1] as SimulatedConnection;
    rig.session.sendMessage('Are you there now?', { respond: false });
    await second.waitForClientEvent('conversation.item.create');
    expect(userTexts(second)).toEqual(['Are you there now?']);
    await rig.closeAndExpectReleased();
  });

  test('invalid UTF-8 from the service: disconnected in the same turn as the socket error, sends refused, reconnected', async () => {
    const rig = await CutRig.start();
    const first = await rig.connect();
    const socket = rig.sockets[0] as WsWebSocket;
    const atError: { status?: string; send?: unknown } = {};
    // Runs right after the adapter's own error listener (added when the socket was created).
    const onError = () => {
      atError.status = rig.session.status;
      try {
        rig.session.sendMessage('Hello?');
      } catch (error) {
        atError.send = error;
      }
    };
    socket.addEventListener('error', onError);

    first.sendRaw(Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])); // `{"` + invalid bytes + `"}`

    const reconnecting = await rig.waitFor('reconnecting');
    socket.removeEventListener('error', onError);
    expect(atError.status).toBe('reconnecting');
    expect(atError.send).toBeInstanceOf(SessionNotConnectedError);
    expect(reconnecting).toMatchObject({ reason: 'connection_lost', attempt: 1 });
    expect(reconnecting.detail).toMatch(/socket error: .*UTF-8/i);
    await rig.waitFor('reconnected');
    expect(rig.sim.connections).toHaveLength(2);
    expect(userTexts(first)).toEqual([]);
    await rig.closeAndExpectReleased();
  });
});
