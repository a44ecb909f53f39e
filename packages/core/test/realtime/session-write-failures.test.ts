import { escapeWatch } from '@parley/conformance';
import {
  Agent,
  RealtimeSession,
  type RealtimeSessionOptions,
  SessionNotConnectedError,
  TurnLostError,
} from '@parley/core';
import { flushMicrotasks, type MockRealtimeConnection, MockRealtimeModel } from '@parley/mock';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bookingSession, createdItems } from './fixtures.js';

// A raw throw that escapes (an unhandled rejection or an uncaught exception) fails the test that caused it.
const escapes = escapeWatch();
beforeEach(() => escapes.start());
afterEach(async () => expect(await escapes.stop()).toEqual([]));

const setup = (options?: Partial<RealtimeSessionOptions>) =>
  bookingSession((clock) => new MockRealtimeModel({ clock }), options);

const outputsSent = (connection: MockRealtimeConnection) =>
  connection.commands.filter((c) => c.type === 'sendToolOutput');

describe('a write that fails at the transport is an error event and the disconnect path', () => {
  test('a tool output: no raw throw, the session reconnects and replays the real output once; the lost turn names the call', async () => {
    const { model, session, log, runs } = await (async () => {
      const rig = setup();
      await rig.session.connect();
      return rig;
    })();
    const first = model.connection;
    model.respondWith({
      output: [{ type: 'function_call', name: 'book', arguments: { at: '8 pm' }, callId: 'call_book' }],
    });
    first.failNextSend('sendToolOutput', { failure: 'write', error: new Error('EPIPE: broken pipe') });
    session.sendMessage('A table at 8 pm, please.');
    await log.waitFor('reconnected');

    expect(runs).toEqual(['8 pm']);
    expect(outputsSent(first)).toEqual([]);
    const errors = log.of('error');
    expect(errors.map((e) => e.code)).toEqual(['connection_lost', 'turn_lost']);
    expect(errors[0]?.message).toContain('EPIPE: broken pipe');
    expect(errors[1]?.error).toBeInstanceOf(TurnLostError);
    expect(errors[1]?.error).toMatchObject({ callIds: ['call_book'] });
    expect(log.of('reconnecting')).toMatchObject([{ reason: 'connection_lost', attempt: 1 }]);
    expect(log.of('tool_done')).toEqual([]);
    // The output is the call's: history keeps it, and the new conversation gets it exactly once, by replay.
    expect(session.history.find((i) => i.type === 'function_call')).toMatchObject({
      callId: 'call_book',
      output: 'booked for 8 pm',
    });
    const second = model.connection;
    expect(second).not.toBe(first);
    expect(
      createdItems(second).filter((i) => i.type === 'function_call_output' && i.callId === 'call_book'),
    ).toEqual([{ type: 'function_call_output', callId: 'call_book', output: 'booked for 8 pm' }]);
    expect(outputsSent(second)).toEqual([]);
    await flushMicrotasks();
    expect(runs).toEqual(['8 pm']);
    await session.close();
  });

  test('without reconnecting: disconnected, and the lost turn names the call whose output never left', async () => {
    const { model, session, log, runs } = setup({ reconnect: false });
    await session.connect();
    model.respondWith({
      output: [{ type: 'function_call', name: 'book', arguments: { at: '9 pm' }, callId: 'call_nine' }],
    });
    model.connection.failNextSend('sendToolOutput', { failure: 'write' });
    session.sendMessage('At 9 then.');
    await log.waitFor('connection_status', (e) => e.status === 'disconnected');

    expect(session.status).toBe('disconnected');
    expect(runs).toEqual(['9 pm']);
    const lost = log.of('error').find((e) => e.code === 'turn_lost')?.error as TurnLostError;
    expect(lost.callIds).toEqual(['call_nine']);
    expect(lost.message).toContain('call connect()');
    expect(log.of('error').map((e) => e.code)).toEqual(['connection_lost', 'turn_lost']);
    await session.close();
  });

  test('a user message: the caller gets a typed SessionNotConnectedError, an error event reports it, the session reconnects', async () => {
    const { model, session, log } = setup();
    await session.connect();
    model.connection.failNextSend('createItem', { failure: 'write' });

    let thrown: unknown;
    try {
      session.sendMessage('Hello?');
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(SessionNotConnectedError);
    expect(thrown).toMatchObject({ code: 'session_not_connected' });
    // Later sends are refused the same way until the session is connected again.
    expect(() => session.sendMessage('Hello again?')).toThrow(SessionNotConnectedError);
    await log.waitFor('reconnected');
    expect(log.of('error').map((e) => e.code)).toEqual(['connection_lost']);
    session.sendMessage('Third time.', { respond: false });
    await flushMicrotasks();
    expect(createdItems(model.connection)).toEqual([
      expect.objectContaining({ role: 'user', content: [{ type: 'text', text: 'Third time.' }] }),
    ]);
    await session.close();
  });

  test('a command the connection refuses before writing it keeps the session connected (tool_output_not_sent)', async () => {
    const { model, session, log } = setup();
    await session.connect();
    model.respondWith(
      { output: [{ type: 'function_call', name: 'book', arguments: { at: '7 pm' }, callId: 'call_7' }] },
      'Sorry, I could not confirm the booking.',
    );
    model.connection.failNextSend('sendToolOutput');
    session.sendMessage('At 7.');
    await flushMicrotasks();
    expect(session.status).toBe('connected');
    expect(log.of('error').map((e) => e.code)).toEqual(['tool_output_not_sent']);
    expect(log.of('reconnecting')).toEqual([]);
    expect(model.connections).toHaveLength(1);
    await session.close();
  });

  test('failNextSend checks its options', () => {
    const model = new MockRealtimeModel();
    return (async () => {
      const session = new RealtimeSession(new Agent({ name: 'A' }), { model });
      await session.connect();
      expect(() => model.connection.failNextSend('createItem', { failur: 'write' } as never)).toThrow(
        expect.objectContaining({ code: 'unknown_option' }),
      );
      await session.close();
    })();
  });
});
