import { deferred, type EventRecorder } from '@parley/conformance';
import {
  Agent,
  ConnectionLostError,
  type RealtimeCommand,
  RealtimeSession,
  type RealtimeSessionOptions,
  ReconnectFailedError,
  SessionClosedError,
  SessionNotConnectedError,
  TurnLostError,
  tool,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockConnectError, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createdItems, sessionRig } from './fixtures.js';
import { forecaster as agent } from './shared-fixtures.js';

/** Exact backoff (no jitter) unless a test says otherwise. */
const RECONNECT = { jitter: 0 };

function setup(
  options: Partial<RealtimeSessionOptions> & { lifetimeMs?: number; agent?: Agent } = {},
  mockOptions: ConstructorParameters<typeof MockRealtimeModel>[0] = {},
) {
  const { lifetimeMs, agent: sessionAgent = agent, ...sessionOptions } = options;
  const createModel = (clock: ManualClock) =>
    new MockRealtimeModel({
      clock,
      ...(lifetimeMs !== undefined && { sessionLifetimeMs: lifetimeMs }),
      ...mockOptions,
    });
  return sessionRig(sessionAgent, createModel, { reconnect: RECONNECT, ...sessionOptions });
}

/** Event types emitted from index `from` on. */
const typesSince = (log: EventRecorder, from: number) => log.types().slice(from);

/** Everything the session held is released: no timer, no listener, every connection closed once. */
function expectNothingLeft(clock: ManualClock, model: MockRealtimeModel): void {
  expect(clock.pendingTimers).toBe(0);
  expect(model.connections.map((c) => c.listenerCount)).toEqual(model.connections.map(() => 0));
  expect(model.connections.map((c) => c.status)).toEqual(model.connections.map(() => 'closed'));
}

/** A conversation with a typed turn, a tool call with its output, and a spoken turn each way. */
async function converse(
  session: RealtimeSession,
  model: MockRealtimeModel,
  clock: ManualClock,
): Promise<void> {
  model.respondWith(
    { output: [{ type: 'function_call', name: 'weather', arguments: { city: 'Paris' }, callId: 'call_1' }] },
    'It is sunny in Paris.',
    'You are welcome.',
  );
  session.sendMessage('What is the weather in Paris?');
  await flushMicrotasks();
  // The listener hears the answer out (playback runs on the clock) before speaking again.
  await clock.advance(5_000);
  model.connection.userStartsSpeaking();
  model.connection.userStopsSpeaking({ transcript: 'Thanks!' });
  await flushMicrotasks();
}

describe('the reconnect option', () => {
  test.each([
    [{ maxAttempts: 0 }, 'reconnect.maxAttempts must be a positive integer, got 0.'],
    [{ maxAttempts: 1.5 }, 'reconnect.maxAttempts must be a positive integer, got 1.5.'],
    [{ initialDelayMs: -1 }, 'reconnect.initialDelayMs must be a number of milliseconds >= 0, got -1.'],
    [
      { initialDelayMs: 2000, maxDelayMs: 1000 },
      'reconnect.maxDelayMs (1000) must not be below initialDelayMs (2000).',
    ],
    [{ jitter: 2 }, 'reconnect.jitter must be a fraction from 0 to 1, got 2.'],
    [
      { recycleBeforeExpiryMs: 0 },
      'reconnect.recycleBeforeExpiryMs must be a positive number of milliseconds, got 0.',
    ],
    [{ recycle: 'yes' }, 'reconnect.recycle must be true or false.'],
    ['always', 'reconnect must be true, false or an object such as { maxAttempts: 5 }.'],
  ])('%j is refused before anything connects', (reconnect, message) => {
    const model = new MockRealtimeModel();
    const create = () => new RealtimeSession(agent, { model, reconnect: reconnect as never });
    expect(create).toThrow(UserError);
    expect(create).toThrow(expect.objectContaining({ code: 'invalid_session_options' }));
    expect(create).toThrow(message);
    expect(model.connections).toHaveLength(0);
  });

  test('the mock refuses a session lifetime without a clock', () => {
    expect(() => new MockRealtimeModel({ sessionLifetimeMs: 1000 })).toThrow(
      'sessionLifetimeMs needs a clock: new MockRealtimeModel({ clock, sessionLifetimeMs }).',
    );
    expect(() => new MockRealtimeModel({ clock: new ManualClock(), sessionLifetimeMs: -5 })).toThrow(
      'sessionLifetimeMs must be a positive number of milliseconds, got -5.',
    );
  });
});

describe('an unexpected close', () => {
  test('reconnects at once with the agent config, replays the history in order, and the session goes on', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    await converse(session, model, clock);
    const history = session.history;
    expect(
      history.map((item) => (item.type === 'message' ? `${item.role}:${item.text}` : item.name)),
    ).toEqual([
      'user:What is the weather in Paris?',
      'weather',
      'assistant:It is sunny in Paris.',
      'user:Thanks!',
      'assistant:You are welcome.',
    ]);
    const first = model.connection;
    const before = log.events.length;

    first.disconnect('network down');
    await flushMicrotasks();

    expect(model.connections).toHaveLength(2);
    const second = model.connection;
    // The last answer was still playing (the clock stood still): its turn ends with the connection.
    expect(typesSince(log, before)).toEqual(['turn_done', 'reconnecting', 'reconnected']);
    expect(log.of('reconnecting')).toEqual([
      {
        type: 'reconnecting',
        reason: 'connection_lost',
        attempt: 1,
        maxAttempts: 5,
        delayMs: 0,
        detail: 'network down',
      },
    ]);
    expect(log.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'connection_lost', attempt: 1, replayedItems: 6 },
    ]);
    expect(session.status).toBe('connected');
    expect(second.config).toMatchObject({
      instructions: 'Tell the weather.',
      tools: [expect.objectContaining({ name: 'weather' })],
    });
    // Assistant audio turns as their transcript, the spoken user turn as its transcript, the call with its output.
    const [user, call, sunny, thanks, welcome] = history;
    expect(createdItems(second)).toEqual([
      {
        type: 'message',
        itemId: user?.itemId,
        role: 'user',
        content: [{ type: 'text', text: 'What is the weather in Paris?' }],
      },
      {
        type: 'function_call',
        itemId: call?.itemId,
        callId: 'call_1',
        name: 'weather',
        arguments: '{"city":"Paris"}',
      },
      { type: 'function_call_output', callId: 'call_1', output: 'sunny in Paris' },
      {
        type: 'message',
        itemId: sunny?.itemId,
        role: 'assistant',
        content: [{ type: 'text', text: 'It is sunny in Paris.' }],
      },
      { type: 'message', itemId: thanks?.itemId, role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
      {
        type: 'message',
        itemId: welcome?.itemId,
        role: 'assistant',
        content: [{ type: 'text', text: 'You are welcome.' }],
      },
    ]);
    expect(second.commands.every((c) => c.type === 'createItem')).toBe(true);
    expect(second.conversation.map((item) => item.itemId).filter((id) => !id.startsWith('item_'))).toEqual(
      [],
    );
    // The provider's echoes of the replay do not touch the history (spoken turns stay spoken).
    expect(session.history).toEqual(history);
    expect(log.of('agent_done')).toEqual([]);
    expect(first.closeCalls).toBe(1);
    expect(first.listenerCount).toBe(0);

    model.respondWith('Still sunny.');
    session.sendMessage('And now?');
    await flushMicrotasks();
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Still sunny.' });
    expect(second.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);
    await session.close();
    await log.ended;
    expectNothingLeft(clock, model);
    expect(log.types().slice(-2)).toEqual(['agent_done', 'connection_status']);
  });

  test('a turn in progress is reported: the streaming response, a queued request, and the partial message', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    model.respondWith({
      output: [
        { type: 'message', text: 'Let me tell you a long story', audio: { ms: 600 }, pauseAfterChunks: 2 },
      ],
    });
    const streaming = session.generateResponse();
    const queued = session.generateResponse();
    await flushMicrotasks();
    const responseId = await streaming;
    const partial = session.history.at(-1);
    expect(partial).toMatchObject({ role: 'assistant', status: 'in_progress', interrupted: false });

    model.connection.disconnect('network down');
    await flushMicrotasks();

    await expect(streaming.done).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(queued).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(queued).rejects.toThrow('the session is reconnecting and this request was dropped');
    expect(log.of('response_done')).toEqual([
      {
        type: 'response_done',
        responseId,
        status: 'failed',
        ephemeral: false,
        reason: 'connection_lost',
      },
    ]);
    const [lost] = log.of('error');
    expect(lost).toMatchObject({ source: 'session', code: 'turn_lost' });
    expect(lost?.error).toBeInstanceOf(TurnLostError);
    expect(lost?.error).toMatchObject({
      responseIds: [responseId],
      callIds: [],
      clientRequestIds: [queued.clientRequestId],
    });
    expect(
      log.types().filter((t) => ['response_done', 'error', 'reconnecting', 'reconnected'].includes(t)),
    ).toEqual(['response_done', 'error', 'reconnecting', 'reconnected']);
    // The partial message stays, marked interrupted, and is replayed with what was said of it.
    const message = session.history.find((item) => item.itemId === partial?.itemId);
    expect(message).toMatchObject({ role: 'assistant', interrupted: true });
    expect(message?.type === 'message' && message.text.length).toBeGreaterThan(0);
    expect(createdItems(model.connection)).toEqual([
      {
        type: 'message',
        itemId: partial?.itemId,
        role: 'assistant',
        content: [{ type: 'text', text: message?.type === 'message' ? message.text : '' }],
      },
    ]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('a tool call in flight is cancelled, reported, and replayed with an output saying its result is unknown', async () => {
    let aborted = false;
    const book = tool({
      name: 'book',
      description: 'Books a table',
      parameters: z.object({}),
      execute: (_input, { signal }) =>
        new Promise<string>((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    });
    const { clock, model, session, log } = setup({ agent: new Agent({ name: 'Booker', tools: [book] }) });
    await session.connect();
    model.respondWith({ output: [{ type: 'function_call', name: 'book', callId: 'call_9' }] });
    session.sendMessage('Book a table.');
    await flushMicrotasks();
    expect(log.of('tool_started')).toHaveLength(1);

    model.connection.disconnect('network down');
    await flushMicrotasks();

    expect(aborted).toBe(true);
    expect(log.of('error').map((e) => e.error)).toEqual([expect.any(TurnLostError)]);
    expect(log.of('error')[0]?.error).toMatchObject({ callIds: ['call_9'], responseIds: [] });
    const cutOff =
      'Error: the call to "book" was cut off by a lost connection before it finished; its result is unknown.';
    expect(session.history.find((item) => item.type === 'function_call')).toMatchObject({
      callId: 'call_9',
      output: cutOff,
      status: 'completed',
    });
    expect(log.of('reconnected')).toHaveLength(1);
    expect(createdItems(model.connection)).toEqual([
      expect.objectContaining({ type: 'message', role: 'user' }),
      expect.objectContaining({ type: 'function_call', callId: 'call_9', name: 'book' }),
      { type: 'function_call_output', callId: 'call_9', output: cutOff },
    ]);
    expect(model.connection.commands.filter((c) => c.type !== 'createItem')).toEqual([]);
    expect(log.of('tool_done')).toEqual([]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('a tool that ignores its abort signal holds the reconnect until it returns; its output goes nowhere', async () => {
    const gate = deferred<string>();
    const stubborn = tool({
      name: 'stubborn',
      description: 'Ignores cancellation',
      parameters: z.object({}),
      execute: () => gate.promise,
    });
    const { clock, model, session, log } = setup({ agent: new Agent({ name: 'Mule', tools: [stubborn] }) });
    await session.connect();
    model.respondWith({ output: [{ type: 'function_call', name: 'stubborn', callId: 'call_5' }] });
    session.sendMessage('Go.');
    await flushMicrotasks();
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(session.status).toBe('reconnecting');
    expect(model.connections).toHaveLength(1);
    gate.resolve('done anyway');
    await flushMicrotasks();
    expect(log.of('reconnected')).toHaveLength(1);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toEqual([]);
    expect(session.history.find((item) => item.type === 'function_call')).toMatchObject({
      output: expect.stringContaining('its result is unknown'),
    });
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('the documented resume: after turn_lost, generateResponse() on reconnected answers the cut-off turn', async () => {
    const { clock, model, session, log } = setup();
    let turnLost = false;
    session.on('error', (e) => {
      if (e.code === 'turn_lost') turnLost = true;
    });
    session.on('reconnected', () => {
      if (turnLost) session.generateResponse();
      turnLost = false;
    });
    await session.connect();
    model.respondWith(
      { output: [{ type: 'message', text: 'The answer is', pauseAfterChunks: 1 }] },
      'The answer is 42.',
    );
    session.sendMessage('What is the answer?');
    await flushMicrotasks();
    model.connection.disconnect();
    await flushMicrotasks();
    expect(log.of('reconnected')).toHaveLength(1);
    expect(model.connection.commands.map((c) => c.type)).toEqual([
      'createItem',
      'createItem',
      'createResponse',
    ]);
    expect(session.history.at(-1)).toMatchObject({
      role: 'assistant',
      text: 'The answer is 42.',
      interrupted: false,
    });
    expect(session.history.at(-2)).toMatchObject({ role: 'assistant', interrupted: true });
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('an ephemeral response in flight is reported lost and its slot is free again after the reconnect', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    model.respondWith(
      { output: [{ type: 'message', text: 'Your code is', pauseAfterChunks: 1 }] },
      'Again: 4711.',
    );
    const ephemeral = session.generateResponse({ addToHistory: false, instructions: 'Read the code.' });
    const responseId = await ephemeral;
    model.connection.disconnect();
    await flushMicrotasks();
    await expect(ephemeral.done).rejects.toBeInstanceOf(ConnectionLostError);
    expect(log.of('response_done')).toEqual([
      {
        type: 'response_done',
        responseId,
        status: 'failed',
        ephemeral: true,
        reason: 'connection_lost',
      },
    ]);
    expect(log.of('error').map((e) => e.error)).toEqual([
      expect.objectContaining({ responseIds: [responseId] }),
    ]);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ replayedItems: 0 })]);
    expect(session.history).toEqual([]);
    const again = session.generateResponse({ addToHistory: false });
    await expect(again.done).resolves.toMatchObject({ status: 'completed' });
    expect(log.of('error').map((e) => e.code)).toEqual(['turn_lost']);
    expect(session.history).toEqual([]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('spoken turns without a transcript cannot be replayed: a warning names them', async () => {
    const { model, session, log } = setup();
    await session.connect();
    model.respondWith('Sure.');
    model.connection.userStartsSpeaking();
    model.connection.userStopsSpeaking();
    await flushMicrotasks();
    const spoken = session.history[0];
    expect(spoken).toMatchObject({ role: 'user', hasAudio: true, text: '' });
    model.connection.disconnect();
    await flushMicrotasks();
    expect(log.of('warning')).toEqual([
      {
        type: 'warning',
        code: 'history_not_replayed',
        message: `1 spoken message(s) had no transcript and were not replayed into the new conversation (${spoken?.itemId}); turn on input transcription to keep them.`,
      },
    ]);
    expect(createdItems(model.connection)).toEqual([
      expect.objectContaining({ role: 'assistant', content: [{ type: 'text', text: 'Sure.' }] }),
    ]);
    await session.close();
  });
});

describe('session_expired', () => {
  test('the provider ending the session at its limit reconnects with reason session_expired', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    model.respondWith('Hi.');
    session.sendMessage('Hello');
    await flushMicrotasks();
    model.connection.expire();
    await flushMicrotasks();
    expect(log.of('error')).toEqual([
      expect.objectContaining({ source: 'provider', code: 'session_expired', fatal: true }),
    ]);
    expect(log.of('reconnecting')).toEqual([
      expect.objectContaining({
        reason: 'session_expired',
        attempt: 1,
        detail: 'fatal provider error: session_expired',
      }),
    ]);
    expect(log.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'session_expired', attempt: 1, replayedItems: 2 },
    ]);
    expect(model.connections).toHaveLength(2);
    expect(session.status).toBe('connected');
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('other fatal errors do not reconnect: the session reports disconnected', async () => {
    const { model, session, log } = setup();
    await session.connect();
    model.connection.emitError({ code: 'invalid_api_key', fatal: true });
    await flushMicrotasks();
    expect(session.status).toBe('disconnected');
    expect(log.of('reconnecting')).toEqual([]);
    expect(model.connections).toHaveLength(1);
    await session.close();
  });
});

describe('backoff and giving up', () => {
  test('failed attempts back off exponentially on the clock, each announced with the previous error', async () => {
    const { clock, model, session, log } = setup({
      reconnect: { jitter: 0, initialDelayMs: 500, maxDelayMs: 800 },
    });
    await session.connect();
    model.failNextConnect(new MockConnectError('refused 1'));
    model.failNextConnect(new MockConnectError('refused 2'));
    model.failNextConnect(new MockConnectError('refused 3'));
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(session.status).toBe('reconnecting');
    expect(log.of('reconnecting').map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 0],
      [2, 500],
    ]);
    expect(log.of('reconnecting')[1]?.error).toMatchObject({ message: 'refused 1' });
    expect(() => session.sendMessage('hello?')).toThrow(SessionNotConnectedError);

    await clock.advance(499);
    expect(log.of('reconnecting')).toHaveLength(2);
    await clock.advance(1);
    expect(log.of('reconnecting').map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 0],
      [2, 500],
      [3, 800],
    ]);
    await clock.advance(800);
    expect(
      log
        .of('reconnecting')
        .map((e) => [e.attempt, e.delayMs])
        .at(-1),
    ).toEqual([4, 800]);
    expect(log.of('reconnected')).toEqual([]);
    await clock.advance(800);
    expect(log.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'connection_lost', attempt: 4, replayedItems: 0 },
    ]);
    expect(session.status).toBe('connected');
    expect(model.connections).toHaveLength(2);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('jitter shortens each wait by at most its fraction', async () => {
    const { clock, model, session, log } = setup({ reconnect: { jitter: 0.5, initialDelayMs: 1000 } });
    await session.connect();
    model.failNextConnect();
    model.connection.disconnect();
    await flushMicrotasks();
    const delayMs = log.of('reconnecting')[1]?.delayMs ?? -1;
    expect(delayMs).toBeGreaterThanOrEqual(500);
    expect(delayMs).toBeLessThanOrEqual(1000);
    await clock.advance(delayMs);
    expect(log.of('reconnected')).toHaveLength(1);
    await session.close();
  });

  test('a last failure that is not an Error is named in the give-up message', async () => {
    const { clock, model, session, log } = setup({ reconnect: { jitter: 0, maxAttempts: 1 } });
    await session.connect();
    model.failNextConnect('gateway said no');
    model.connection.disconnect('network down');
    await flushMicrotasks();
    await clock.advance(500);
    const failure = log.of('error').at(-1);
    expect(failure?.error).toBeInstanceOf(ReconnectFailedError);
    expect(failure?.error).toMatchObject({ attempts: 1, cause: 'gateway said no' });
    expect((failure?.error as Error | undefined)?.message).toBe(
      'Could not reconnect after 1 attempt: gateway said no. The session is disconnected; call connect() to try again.',
    );
  });

  test('exhausted attempts: a typed error, status disconnected, and connect() works again', async () => {
    const { clock, model, session, log } = setup({ reconnect: { jitter: 0, maxAttempts: 3 } });
    await session.connect();
    for (let i = 0; i < 3; i++) model.failNextConnect(new MockConnectError(`refused ${i + 1}`));
    model.connection.disconnect('network down');
    await flushMicrotasks();
    const joined = session.connect().catch((e: unknown) => e);
    await clock.advance(500);
    await clock.advance(1000);
    expect(session.status).toBe('disconnected');
    expect(clock.pendingTimers).toBe(0);
    const failure = log.of('error').at(-1);
    expect(failure).toMatchObject({ source: 'session', code: 'reconnect_failed' });
    expect(failure?.error).toBeInstanceOf(ReconnectFailedError);
    expect(failure?.error).toMatchObject({ attempts: 3, cause: { message: 'refused 3' } });
    expect((failure?.error as Error | undefined)?.message).toBe(
      'Could not reconnect after 3 attempts: refused 3. The session is disconnected; call connect() to try again.',
    );
    expect(await joined).toBe(failure?.error);
    expect(log.types().slice(-4)).toEqual(['reconnecting', 'error', 'connection_status', 'agent_done']);
    expect(log.of('connection_status').at(-1)).toEqual({
      type: 'connection_status',
      status: 'disconnected',
      reason: 'reconnect_failed',
    });
    expect(log.of('agent_done')).toEqual([{ type: 'agent_done', agent, reason: 'disconnect' }]);

    await session.connect();
    expect(session.status).toBe('connected');
    expect(model.connections).toHaveLength(2);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('a connection that drops again soon after a reconnect continues the attempt count', async () => {
    const { clock, model, session, log } = setup({ reconnect: { jitter: 0, maxAttempts: 2 } });
    await session.connect();
    model.connection.disconnect('flap 1');
    await flushMicrotasks();
    model.connection.disconnect('flap 2');
    await flushMicrotasks();
    expect(log.of('reconnecting').map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 0],
      [2, 500],
    ]);
    await clock.advance(500);
    expect(log.of('reconnected')).toHaveLength(2);
    // Stable for long enough: the next outage starts over.
    await clock.advance(30_000);
    model.connection.disconnect('later');
    await flushMicrotasks();
    expect(log.of('reconnecting').at(-1)).toMatchObject({ attempt: 1, delayMs: 0, detail: 'later' });
    expect(log.of('reconnected')).toHaveLength(3);
    await session.close();
    expectNothingLeft(clock, model);
  });
});

describe('close() and the app during a reconnect', () => {
  test('close() during the backoff stops it: no timer, no new connection, the stream ends closed', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    model.failNextConnect();
    model.connection.disconnect();
    await flushMicrotasks();
    expect(clock.pendingTimers).toBe(1);
    const joined = session.connect().catch((e: unknown) => e);
    await session.close();
    await log.ended;
    expect(await joined).toBeInstanceOf(SessionClosedError);
    expect(session.status).toBe('closed');
    await clock.advance(60_000);
    expect(model.connections).toHaveLength(1);
    expectNothingLeft(clock, model);
    expect(log.types().slice(-3)).toEqual(['reconnecting', 'agent_done', 'connection_status']);
    expect(log.of('agent_done')).toEqual([{ type: 'agent_done', agent, reason: 'close' }]);
    expect(log.events.at(-1)).toEqual({ type: 'connection_status', status: 'closed' });
  });

  test('close() while an attempt is connecting aborts it; a connection handed over late is closed', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    const gate = model.holdConnects({ ignoreAbort: true });
    model.connection.disconnect();
    await flushMicrotasks();
    await session.close();
    gate.release();
    await flushMicrotasks();
    expect(model.connections).toHaveLength(2);
    expectNothingLeft(clock, model);
    expect(model.connections[1]?.closeCalls).toBe(1);
    expect(log.of('reconnected')).toEqual([]);
  });

  test('connect() and updateAgent() during a reconnect wait for it; the new agent is applied after', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    model.failNextConnect();
    model.connection.disconnect();
    await flushMicrotasks();
    const joined = session.connect();
    const other = new Agent({ name: 'Other', instructions: 'Be other.' });
    const switched = session.updateAgent(other);
    await clock.advance(500);
    await joined;
    await switched;
    expect(session.currentAgent).toBe(other);
    expect(model.connection.commands.filter((c) => c.type === 'updateSession')).toEqual([
      { type: 'updateSession', config: expect.objectContaining({ instructions: 'Be other.' }) },
    ]);
    expect(log.of('handoff')).toEqual([expect.objectContaining({ via: 'update_agent', to: other })]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('reconnect: false keeps the manual path', async () => {
    const { model, session, log } = setup({ reconnect: false });
    await session.connect();
    model.connection.disconnect('gone');
    await flushMicrotasks();
    expect(session.status).toBe('disconnected');
    expect(log.of('reconnecting')).toEqual([]);
    expect(model.connections).toHaveLength(1);
    await session.close();
  });
});

describe('recycling before the session limit', () => {
  test('shortly before the limit, between turns, the connection is swapped for a fresh one with the history', async () => {
    const { clock, model, session, log } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    model.respondWith('Hi there.');
    session.sendMessage('Hello');
    await flushMicrotasks();
    const first = model.connection;
    expect(first.expiresAt).toBeGreaterThan(Date.now() + 50_000);

    await clock.advance(49_000);
    expect(model.connections).toHaveLength(1);
    await clock.advance(1_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnecting')).toEqual([
      { type: 'reconnecting', reason: 'recycle', attempt: 1, maxAttempts: 5, delayMs: 0 },
    ]);
    expect(log.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'recycle', attempt: 1, replayedItems: 2 },
    ]);
    expect(createdItems(model.connection).map((item) => item.type === 'message' && item.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(first.closeCalls).toBe(1);
    // The old connection was closed before its limit: it never expired.
    await clock.advance(10_000);
    expect(log.of('error')).toEqual([]);
    expect(session.status).toBe('connected');
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('a session limit beyond the timer range (30 days) recycles once, shortly before it, not in a loop', async () => {
    const DAY_MS = 86_400_000;
    const { clock, model, session, log } = setup({
      lifetimeMs: 30 * DAY_MS,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    await clock.advance(60_000);
    expect(model.connections).toHaveLength(1);
    expect(log.of('reconnecting')).toEqual([]);

    // Past the 2^31 ms (24.8 days) a single timer can wait, still before the recycle is due.
    await clock.advance(30 * DAY_MS - 60_000 - 11_000);
    expect(model.connections).toHaveLength(1);
    await clock.advance(2_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle' })]);
    expect(model.connections[0]?.closeCalls).toBe(1);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('not during a turn: a streaming response defers the recycle until it is done', async () => {
    const { clock, model, session, log } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    model.respondWith({ output: [{ type: 'message', text: 'A long answer', pauseAfterChunks: 1 }] });
    session.sendMessage('Tell me');
    await flushMicrotasks();
    await clock.advance(52_000);
    expect(model.connections).toHaveLength(1);
    expect(log.of('reconnecting')).toEqual([]);
    model.connection.resume();
    await flushMicrotasks();
    expect(log.of('response_done')).toHaveLength(1);
    await clock.advance(1_000);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle' })]);
    expect(model.connections).toHaveLength(2);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('not while the user speaks or a tool runs', async () => {
    const gate = deferred<string>();
    const slow = tool({
      name: 'slow',
      description: 'Slow',
      parameters: z.object({}),
      execute: () => gate.promise,
    });
    const { clock, model, session, log } = setup({
      agent: new Agent({ name: 'Slowpoke', tools: [slow] }),
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    model.connection.userStartsSpeaking();
    await clock.advance(55_000);
    expect(model.connections).toHaveLength(1);
    model.respondWith({ output: [{ type: 'function_call', name: 'slow', callId: 'c1' }] }, 'Done.');
    model.connection.userStopsSpeaking({ transcript: 'Do the slow thing' });
    await flushMicrotasks();
    expect(log.of('tool_started')).toHaveLength(1);
    await clock.advance(2_000);
    expect(model.connections).toHaveLength(1);
    gate.resolve('ok');
    await flushMicrotasks();
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Done.' });
    await clock.advance(1_000);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle' })]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('after the user stopped speaking the provider is about to answer: that is still a turn, for a while', async () => {
    const { clock, model, session, log } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    await clock.advance(49_000);
    model.connection.userStartsSpeaking();
    model.connection.userStopsSpeaking({ transcript: 'Hmm', respond: false });
    await flushMicrotasks();
    // Due at ~50 s, checked again every second; the expected answer holds it until 5 s after the speech.
    await clock.advance(4_900);
    expect(model.connections).toHaveLength(1);
    await clock.advance(2_000);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle', replayedItems: 1 })]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('a turn that starts while the new connection opens cancels the swap; it is tried again later', async () => {
    const { clock, model, session, log } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    const first = model.connection;
    const gate = model.holdConnects();
    await clock.advance(50_000);
    model.respondWith({ output: [{ type: 'message', text: 'Wait', pauseAfterChunks: 1 }] });
    session.sendMessage('Quick question');
    await flushMicrotasks();
    gate.release();
    await flushMicrotasks();
    expect(model.connections).toHaveLength(2);
    expect(model.connections[1]?.closeCalls).toBe(1);
    expect(model.connection.status).toBe('closed');
    expect(log.of('reconnecting')).toEqual([]);
    first.resume();
    await flushMicrotasks();
    await clock.advance(1_000);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle' })]);
    expect(model.connections).toHaveLength(3);
    expect(first.closeCalls).toBe(1);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('a recycle that cannot connect keeps the current connection and warns', async () => {
    const { clock, model, session, log } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000, maxAttempts: 2 },
    });
    await session.connect();
    const first = model.connection;
    model.failNextConnect(new MockConnectError('busy'));
    model.failNextConnect(new MockConnectError('still busy'));
    await clock.advance(50_000);
    expect(log.of('warning').map((w) => w.code)).toEqual(['recycle_failed']);
    expect(log.of('warning')[0]?.message).toContain(
      '(busy); the current connection stays in use and the session tries again',
    );
    expect(session.status).toBe('connected');
    expect(first.status).toBe('open');
    await clock.advance(500);
    expect(log.of('warning').map((w) => w.code)).toEqual(['recycle_failed', 'recycle_failed']);
    // Out of attempts: the provider's limit ends it and the session reconnects after the fact.
    await clock.advance(9_500);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'session_expired' })]);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('recycle: false leaves it to the provider limit, then reconnects', async () => {
    const { clock, model, session, log } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycle: false },
    });
    await session.connect();
    await clock.advance(59_999);
    expect(model.connections).toHaveLength(1);
    await clock.advance(1);
    expect(log.of('reconnecting')).toEqual([expect.objectContaining({ reason: 'session_expired' })]);
    expect(log.of('reconnected')).toHaveLength(1);
    await session.close();
    expectNothingLeft(clock, model);
  });

  test('close() during a recycle leaves nothing', async () => {
    const { clock, model, session } = setup({
      lifetimeMs: 60_000,
      reconnect: { jitter: 0, recycleBeforeExpiryMs: 10_000 },
    });
    await session.connect();
    const gate = model.holdConnects({ ignoreAbort: true });
    await clock.advance(50_000);
    await session.close();
    gate.release();
    await flushMicrotasks();
    expect(model.connections).toHaveLength(2);
    expectNothingLeft(clock, model);
  });
});

test('commands recorded across connections keep their order', async () => {
  const { model, session } = setup();
  await session.connect();
  session.sendMessage('one', { respond: false });
  await flushMicrotasks();
  model.connection.disconnect();
  await flushMicrotasks();
  session.sendMessage('two', { respond: false });
  await flushMicrotasks();
  const texts = model.commands.flatMap((c: RealtimeCommand) =>
    c.type === 'createItem' && c.item.type === 'message' && c.item.content[0]?.type === 'text'
      ? [c.item.content[0].text]
      : [],
  );
  expect(texts).toEqual(['one', 'one', 'two']);
  await session.close();
});
