import { escapeWatch } from '@parley/conformance';
import { Agent, SessionNotConnectedError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import type { RealtimeSimulator, SimulatorConnection } from '@parley/simulator';
import type { TransportFaults } from '@parley/transport/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { bookingTool } from '../../../core/test/realtime/shared-fixtures.js';
import { API_KEY, simulator } from './helpers.js';
import {
  closeAndExpectNoSockets,
  closingWithoutAcknowledgement,
  type FaultableSockets,
  faultableSockets,
  SimulatedSession,
  trackedSockets,
} from './session-rig.js';

/**
 * A reconnecting session on an `OpenAIRealtimeModel` over the simulator, one ManualClock for all three, and the ws
 * sockets the adapter opened, behind the conformance harnesses' transport faults.
 */
class CutRig extends SimulatedSession {
  readonly faults: TransportFaults;

  constructor(sim: RealtimeSimulator, agent: Agent, sockets: FaultableSockets) {
    super(sim, new ManualClock(), agent, { sockets });
    this.faults = sockets.faults;
  }

  static async start(agent = new Agent({ name: 'Listener', instructions: 'Answer.' })): Promise<CutRig> {
    const sim = await simulator({ clock: new ManualClock(), pace: 'instant' });
    return new CutRig(sim, agent, await faultableSockets());
  }

  async closeAndExpectReleased(): Promise<void> {
    await closeAndExpectNoSockets(this.session, this.sim, this.clock, this.sockets);
  }
}

// A raw throw that escapes (an unhandled rejection or an uncaught exception) fails the test that caused it.
const escapes = escapeWatch();
beforeEach(() => escapes.start());
afterEach(async () => expect(await escapes.stop()).toEqual([]));

const userTexts = (server: SimulatorConnection) =>
  (server.clientEvents as { type?: string; item?: { content?: { text?: string }[] } }[])
    .filter((e) => e.type === 'conversation.item.create')
    .map((e) => e.item?.content?.[0]?.text);

describe('a socket that stops being open is a disconnect at once', () => {
  test('closing with no close acknowledgement: the next send is refused with a typed error and the session reconnects', async () => {
    const rig = await CutRig.start();
    const first = await rig.connect();

    closingWithoutAcknowledgement(rig.sockets[0] as WsWebSocket);
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

    const second = rig.sim.connections[1] as SimulatorConnection;
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

describe('a write that fails at the socket', () => {
  test('a tool output: an error event and the disconnect path, never a raw throw; reconnected, the real output is replayed once', async () => {
    const runs: string[] = [];
    const rig = await CutRig.start(
      new Agent({ name: 'Host', instructions: 'Book.', tools: [bookingTool(runs)] }),
    );
    const first = await rig.connect();
    rig.sim.script({ type: 'function_call', name: 'book', arguments: { at: '8 pm' }, callId: 'call_book' });
    rig.faults.failNextWrite((frame) => frame.includes('"function_call_output"'));

    rig.session.sendMessage('A table at 8 pm.');
    await rig.waitFor('reconnected');

    expect(runs).toEqual(['8 pm']);
    const errors = rig.of('error');
    expect(errors.map((e) => e.code)).toEqual(['connection_lost', 'turn_lost']);
    expect(errors[0]?.message).toContain('write EPIPE');
    expect(errors[1]?.error).toMatchObject({ callIds: ['call_book'] });
    expect(rig.of('reconnecting')[0]?.detail).toContain('write EPIPE');
    const outputs = (server: SimulatorConnection) =>
      (
        server.clientEvents as {
          type?: string;
          item?: { type?: string; call_id?: string; output?: string };
        }[]
      )
        .filter((e) => e.type === 'conversation.item.create' && e.item?.type === 'function_call_output')
        .map((e) => [e.item?.call_id, e.item?.output]);
    expect(outputs(first)).toEqual([]);
    const second = rig.sim.connections[1] as SimulatorConnection;
    await second.waitForClientEvent(
      (e) => (e as { item?: { type?: string } }).item?.type === 'function_call_output',
    );
    expect(outputs(second)).toEqual([['call_book', 'booked for 8 pm']]);
    expect(runs).toEqual(['8 pm']);
    await rig.closeAndExpectReleased();
  });
});

describe('a user message the service had not acknowledged when the connection dropped', () => {
  test('never acknowledged: replayed once after the reconnect, with its item id, and in history once', async () => {
    const rig = await CutRig.start();
    const first = await rig.connect();

    rig.session.sendMessage('Remember: a table for two.', { respond: false });
    first.terminate(); // the service never reads it

    await rig.waitFor('reconnected');
    const second = rig.sim.connections[1] as SimulatorConnection;
    await rig.waitFor(
      'history_added',
      (e) => e.item.type === 'message' && e.item.text === 'Remember: a table for two.',
    );
    expect(userTexts(first)).toEqual([]);
    expect(userTexts(second)).toEqual(['Remember: a table for two.']);
    expect(second.conversation.items.map((item) => item.id)).toEqual(
      rig.session.history.map((item) => item.itemId),
    );
    expect(
      rig.session.history.filter((item) => item.type === 'message' && item.role === 'user'),
    ).toHaveLength(1);
    expect(rig.of('error').filter((e) => e.code === 'turn_lost')).toEqual([]);
    await rig.closeAndExpectReleased();
  });

  test('acknowledged before the drop: replayed once, with the history, not a second time', async () => {
    const rig = await CutRig.start();
    const first = await rig.connect();
    rig.session.sendMessage('Remember: a table for two.', { respond: false });
    await rig.waitFor('history_added');

    first.terminate();

    await rig.waitFor('reconnected');
    const second = rig.sim.connections[1] as SimulatorConnection;
    await second.waitForClientEvent('conversation.item.create');
    expect(userTexts(first)).toEqual(['Remember: a table for two.']);
    expect(userTexts(second)).toEqual(['Remember: a table for two.']);
    expect(
      rig.session.history.filter((item) => item.type === 'message' && item.role === 'user'),
    ).toHaveLength(1);
    await rig.closeAndExpectReleased();
  });
});

describe('a socket that stops being open while connecting', () => {
  test('before the initial session.update could be written: connect() fails with a typed error, nothing thrown elsewhere', async () => {
    const sim = await simulator({ clock: new ManualClock(), onConnection: () => 'defer' });
    const { sockets, transport } = trackedSockets();
    const model = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url,
      ...transport,
      clock: new ManualClock(),
    });
    const connecting = model.connect({ config: {} });
    const server = await sim.waitForConnection(0);
    const socket = sockets[0] as WsWebSocket;
    if (socket.readyState !== WsWebSocket.OPEN) await new Promise((open) => socket.once('open', open));
    closingWithoutAcknowledgement(socket);

    server.start(); // session.created arrives; the adapter cannot write its session.update

    await expect(connecting).rejects.toMatchObject({ code: 'realtime_closed_before_ready' });
    expect(server.clientEvents).toEqual([]);
    // The socket was released at once, without waiting for a closing handshake.
    await server.closed;
    expect(socket.listenerCount('message')).toBe(0);
  });
});
