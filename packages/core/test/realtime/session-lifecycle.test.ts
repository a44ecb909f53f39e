import { deferred, EventRecorder } from '@parley/conformance';
import {
  Agent,
  ConnectionLostError,
  RealtimeConnectError,
  RealtimeSession,
  SessionClosedError,
  SessionNotConnectedError,
  TurnLostError,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockConnectError, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { lookup } from './fixtures.js';

const agent = new Agent({ name: 'Concierge', instructions: 'Help the guest.', tools: [lookup] });

describe('connect()', () => {
  test('connects with the agent instructions and tools, then reports connected and agent_started', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model });
    const log = new EventRecorder(session);
    await session.connect();
    await flushMicrotasks();
    expect(session.status).toBe('connected');
    expect(model.connection.config).toMatchObject({
      instructions: 'Help the guest.',
      tools: [{ name: 'lookup', description: 'Looks something up', parameters: { type: 'object' } }],
      outputModalities: ['audio'],
    });
    expect(log.types()).toEqual(['connection_status', 'connection_status', 'agent_started']);
    expect(log.of('connection_status').map((e) => e.status)).toEqual(['connecting', 'connected']);
    await session.connect();
    expect(model.connections).toHaveLength(1);
    await session.close();
  });

  test('a failure after the connection and listener were acquired releases both; connect() works again', async () => {
    const model = new MockRealtimeModel();
    model.closeNextConnectionOnArrival();
    const session = new RealtimeSession(agent, { model });
    const log = new EventRecorder(session);
    const error = await session.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RealtimeConnectError);
    expect((error as RealtimeConnectError).code).toBe('connect_failed');
    const [first] = model.connections;
    expect(first?.listenerCount).toBe(0);
    expect(first?.closeCalls).toBe(1);
    expect(session.status).toBe('idle');
    expect(log.of('connection_status').at(-1)).toMatchObject({
      status: 'disconnected',
      reason: 'connect_failed',
    });

    await session.connect();
    expect(session.status).toBe('connected');
    expect(model.connections).toHaveLength(2);
    expect(model.connection.listenerCount).toBe(1);
    await session.close();
    expect(first?.closeCalls).toBe(1);
    expect(model.connection.closeCalls).toBe(1);
  });

  test('a provider that refuses the connection: typed error with the cause; connect() works again', async () => {
    const model = new MockRealtimeModel();
    model.failNextConnect(new MockConnectError('invalid credentials', 'invalid_api_key'));
    const session = new RealtimeSession(agent, { model });
    const error = (await session.connect().catch((e: unknown) => e)) as RealtimeConnectError;
    expect(error).toBeInstanceOf(RealtimeConnectError);
    expect(error.message).toBe('Could not connect to "mock": invalid credentials');
    expect(error.cause).toMatchObject({ code: 'invalid_api_key' });
    await session.connect();
    expect(session.status).toBe('connected');
    await session.close();
  });

  test('instructions that throw fail connect() before any connection is made', async () => {
    let broken = true;
    const model = new MockRealtimeModel();
    const moody = new Agent({
      name: 'Moody',
      instructions: () => {
        if (broken) throw new Error('no instructions today');
        return 'fine';
      },
    });
    const session = new RealtimeSession(moody, { model });
    await expect(session.connect()).rejects.toThrow(/no instructions today/);
    expect(model.connections).toHaveLength(0);
    broken = false;
    await session.connect();
    expect(model.connection.config.instructions).toBe('fine');
    await session.close();
  });

  test('close() during connect(): connect rejects SessionClosedError and nothing stays open', async () => {
    const model = new MockRealtimeModel();
    const gate = model.holdConnects();
    const session = new RealtimeSession(agent, { model });
    const connecting = session.connect();
    await flushMicrotasks();
    await session.close();
    await expect(connecting).rejects.toBeInstanceOf(SessionClosedError);
    gate.release();
    await flushMicrotasks();
    expect(model.connections).toHaveLength(0);
    expect(session.status).toBe('closed');
  });

  test('close() during connect() with a provider that ignores the signal: the late connection is closed', async () => {
    const model = new MockRealtimeModel();
    const gate = model.holdConnects({ ignoreAbort: true });
    const session = new RealtimeSession(agent, { model });
    const connecting = session.connect().catch((e: unknown) => e);
    await flushMicrotasks();
    await session.close();
    expect(await connecting).toBeInstanceOf(SessionClosedError);
    gate.release();
    await flushMicrotasks();
    expect(model.connection.closeCalls).toBe(1);
    expect(model.connection.listenerCount).toBe(0);
  });
});

describe('close()', () => {
  test('is idempotent and concurrent-safe: one connection close, one closed event', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model });
    const log = new EventRecorder(session);
    await session.connect();
    await Promise.all([session.close(), session.close(), session.close()]);
    await session.close();
    expect(model.connection.closeCalls).toBe(1);
    expect(model.connection.listenerCount).toBe(0);
    expect(log.of('connection_status').filter((e) => e.status === 'closed')).toHaveLength(1);
    expect(log.types().slice(-2)).toEqual(['agent_done', 'connection_status']);
    expect(log.of('agent_done')[0]).toMatchObject({ reason: 'close' });
  });

  test('wakes and ends every waiting iterator; iterators made after close end at once', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model });
    await session.connect();
    await flushMicrotasks();
    const a = session[Symbol.asyncIterator]();
    const b = session[Symbol.asyncIterator]();
    const waitingA = a.next();
    const waitingB = b.next();
    await session.close();
    // Buffered events (agent_done, closed) are delivered first, then done.
    const seenA = [await waitingA];
    for (;;) {
      const next = await a.next();
      seenA.push(next);
      if (next.done) break;
    }
    expect(seenA.map((r) => (r.done ? 'done' : r.value.type))).toEqual([
      'agent_done',
      'connection_status',
      'done',
    ]);
    expect((await waitingB).done).toBe(false);
    const late = session[Symbol.asyncIterator]();
    expect(await late.next()).toEqual({ value: undefined, done: true });
  });

  test('for await over the session ends when the session is closed from another task', async () => {
    const model = new MockRealtimeModel().respondWith('Hello!');
    const session = new RealtimeSession(agent, { model });
    await session.connect();
    session.on('response_done', () => {
      void session.close();
    });
    session.sendMessage('hi');
    const seen: string[] = [];
    for await (const event of session) seen.push(event.type);
    expect(seen).toContain('response_done');
    expect(seen.at(-1)).toBe('connection_status');
    expect(session.status).toBe('closed');
    expect(model.connection.closeCalls).toBe(1);
  });

  test('closing from inside a running tool (another task): its output is never sent', async () => {
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    let closed: Promise<void> | undefined;
    const session: RealtimeSession = new RealtimeSession(
      new Agent({
        name: 'Closer',
        tools: [
          tool({
            name: 'hang_up',
            description: 'Ends the call',
            parameters: z.object({}),
            execute: () => {
              // Not awaited: close() waits for this very tool to finish.
              closed = session.close();
              return 'bye';
            },
          }),
        ],
      }),
      { model },
    );
    model.respondWith({ output: [{ type: 'function_call', name: 'hang_up' }] });
    await session.connect();
    session.sendMessage('bye');
    await flushMicrotasks();
    await closed;
    expect(session.status).toBe('closed');
    expect(model.commands.map((c) => c.type)).toEqual(['createItem', 'createResponse']);
    expect(model.connection.closeCalls).toBe(1);
  });

  test('await using closes the session at the end of the scope', async () => {
    const model = new MockRealtimeModel();
    {
      await using session = new RealtimeSession(agent, { model });
      await session.connect();
    }
    expect(model.connection.closeCalls).toBe(1);
  });

  test('leaves no timer behind', async () => {
    const clock = new ManualClock();
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, clock });
    await session.connect();
    model.connection.dropNextResponseRequest();
    const reply = session.generateResponse();
    await flushMicrotasks();
    expect(clock.pendingTimers).toBe(1);
    await session.close();
    await expect(reply).rejects.toBeInstanceOf(SessionClosedError);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('a lost connection', () => {
  test('reports disconnected, fails what waited on it, refuses commands, and reconnects with connect()', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, reconnect: false });
    const log = new EventRecorder(session);
    await session.connect();
    model.connection.dropNextResponseRequest();
    const reply = session.generateResponse();
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(session.status).toBe('disconnected');
    expect(log.of('connection_status').at(-1)).toMatchObject({
      status: 'disconnected',
      reason: 'network down',
    });
    expect(log.of('agent_done')).toEqual([expect.objectContaining({ reason: 'disconnect' })]);
    await expect(reply).rejects.toBeInstanceOf(ConnectionLostError);
    expect(() => session.sendMessage('hello?')).toThrow(SessionNotConnectedError);
    const first = model.connection;
    expect(first.listenerCount).toBe(0);
    expect(first.closeCalls).toBe(1);

    await session.connect();
    expect(model.connections).toHaveLength(2);
    expect(log.of('agent_started')).toHaveLength(2);
    model.respondWith('Back again.');
    session.sendMessage('hello?');
    await flushMicrotasks();
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Back again.' });
    await session.close();
    expect(first.closeCalls).toBe(1);
  });

  test('without reconnect, a turn in progress is reported like a reconnect reports it', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, reconnect: false });
    const log = new EventRecorder(session);
    await session.connect();
    model.respondWith({
      output: [
        { type: 'message', text: 'Let me tell you a long story', audio: { ms: 600 }, pauseAfterChunks: 2 },
      ],
    });
    const streaming = session.generateResponse();
    await flushMicrotasks();
    const responseId = await streaming;
    const partial = session.history.at(-1);
    expect(partial).toMatchObject({ role: 'assistant', status: 'in_progress', interrupted: false });

    model.connection.disconnect('network down');
    await flushMicrotasks();

    expect(session.status).toBe('disconnected');
    await expect(streaming.done).rejects.toBeInstanceOf(ConnectionLostError);
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
    expect(lost?.error).toMatchObject({ responseIds: [responseId], callIds: [], clientRequestIds: [] });
    expect(lost?.message).toContain('call connect()');
    expect(
      log.types().filter((t) => ['response_done', 'error', 'connection_status', 'agent_done'].includes(t)),
    ).toEqual([
      'connection_status',
      'connection_status',
      'response_done',
      'error',
      'connection_status',
      'agent_done',
    ]);
    const message = session.history.find((item) => item.itemId === partial?.itemId);
    expect(message).toMatchObject({ role: 'assistant', interrupted: true });
    expect(log.of('history_updated').at(-1)?.item).toBe(message);
    await session.close();
  });

  test('a fatal provider error ends the connection like a disconnect', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, reconnect: false });
    const log = new EventRecorder(session);
    await session.connect();
    model.connection.emitError({
      code: 'session_expired',
      message: 'Your session hit the maximum duration.',
      fatal: true,
    });
    await flushMicrotasks();
    expect(log.of('error')[0]).toMatchObject({ source: 'provider', code: 'session_expired', fatal: true });
    expect(session.status).toBe('disconnected');
    expect(model.connection.closeCalls).toBe(1);
    await session.close();
  });
});

describe('tasks on close', () => {
  test('a running tool is cancelled (its signal aborts) and close() awaits its cleanup', async () => {
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const started = deferred();
    let cleanedUp = false;
    const slow = tool({
      name: 'slow',
      description: 'Takes a while',
      parameters: z.object({}),
      execute: (_input, { signal }) =>
        new Promise<string>((_resolve, reject) => {
          started.resolve();
          signal.addEventListener('abort', () => {
            // Cleanup that takes a few turns of the event loop.
            setImmediate(() => {
              cleanedUp = true;
              reject(signal.reason);
            });
          });
        }),
    });
    const session = new RealtimeSession(new Agent({ name: 'A', tools: [slow] }), { model });
    const log = new EventRecorder(session);
    model.respondWith({ output: [{ type: 'function_call', name: 'slow' }] });
    await session.connect();
    session.sendMessage('go');
    await started.promise;
    await session.close();
    expect(cleanedUp).toBe(true);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
    expect(log.of('tool_done')).toHaveLength(0);
  });

  test('a tool that ignores its signal keeps close() waiting; when it finishes it sends nothing', async () => {
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const started = deferred();
    const release = deferred<string>();
    const stubborn = tool({
      name: 'stubborn',
      description: 'Ignores cancellation',
      parameters: z.object({}),
      execute: async () => {
        started.resolve();
        return await release.promise;
      },
    });
    const session = new RealtimeSession(new Agent({ name: 'A', tools: [stubborn] }), { model });
    const log = new EventRecorder(session);
    model.respondWith({ output: [{ type: 'function_call', name: 'stubborn' }] });
    await session.connect();
    session.sendMessage('go');
    await started.promise;
    let closed = false;
    const closing = session.close().then(() => {
      closed = true;
    });
    await flushMicrotasks();
    expect(closed).toBe(false);
    expect(model.connection.closeCalls).toBe(0);
    release.resolve('finished after close');
    await closing;
    expect(model.connection.closeCalls).toBe(1);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
    expect(log.of('tool_done')).toHaveLength(0);
  });

  test('pending approvals are cleared on close: nothing runs, nothing is sent, approve() then throws', async () => {
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    let ran = false;
    const pay = tool({
      name: 'pay',
      description: 'Pays',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: () => {
        ran = true;
        return 'paid';
      },
    });
    const session = new RealtimeSession(new Agent({ name: 'A', tools: [pay] }), { model });
    model.respondWith({
      output: [{ type: 'function_call', name: 'pay', arguments: { amount: 5 }, callId: 'c1' }],
    });
    await session.connect();
    session.sendMessage('pay');
    await flushMicrotasks();
    expect(session.pendingApprovals.map((p) => p.callId)).toEqual(['c1']);
    await session.close();
    expect(session.pendingApprovals).toEqual([]);
    expect(() => session.approve('c1')).toThrow(SessionClosedError);
    await flushMicrotasks();
    expect(ran).toBe(false);
    expect(model.commands.some((c) => c.type === 'sendToolOutput')).toBe(false);
  });

  test('a running output guardrail is cancelled and awaited by close()', async () => {
    const model = new MockRealtimeModel();
    const entered = deferred();
    let sawAbort = false;
    const session = new RealtimeSession(agent, {
      model,
      guardrailDebounceChars: 5,
      outputGuardrails: [
        {
          name: 'slow_check',
          execute: ({ signal }) =>
            new Promise((resolve) => {
              entered.resolve();
              signal.addEventListener('abort', () => {
                sawAbort = true;
                resolve({ tripwireTriggered: true });
              });
            }),
        },
      ],
    });
    const log = new EventRecorder(session);
    model.respondWith('A long enough reply.');
    await session.connect();
    session.sendMessage('hi');
    await entered.promise;
    await session.close();
    expect(sawAbort).toBe(true);
    expect(log.of('guardrail_tripped')).toHaveLength(0);
    expect(model.commands.some((c) => c.type === 'cancelResponse')).toBe(false);
  });
});
