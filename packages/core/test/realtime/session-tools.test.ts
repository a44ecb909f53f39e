import { deferred, EventRecorder } from '@parley/conformance';
import {
  Agent,
  RealtimeSession,
  type RealtimeSessionOptions,
  type ToolGuardrailDecision,
  tool,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

function setup(agent: Agent, options: Partial<RealtimeSessionOptions> = {}) {
  const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
  const session = new RealtimeSession(agent, { model, ...options });
  const log = new EventRecorder(session);
  return { model, session, log };
}

const outputs = (model: MockRealtimeModel) =>
  model.commands.flatMap((c) => (c.type === 'sendToolOutput' ? [[c.callId, c.output]] : []));

describe('tool execution', () => {
  test('runs calls concurrently by default', async () => {
    const gates = { a: deferred<string>(), b: deferred<string>() };
    const started: string[] = [];
    const wait = tool({
      name: 'wait',
      description: 'Waits for a gate',
      parameters: z.object({ gate: z.enum(['a', 'b']) }),
      execute: ({ gate }) => {
        started.push(gate);
        return gates[gate].promise;
      },
    });
    const { model, session } = setup(new Agent({ name: 'A', tools: [wait] }));
    model.respondWith({
      output: [
        { type: 'function_call', name: 'wait', arguments: { gate: 'a' }, callId: 'ca' },
        { type: 'function_call', name: 'wait', arguments: { gate: 'b' }, callId: 'cb' },
      ],
    });
    await session.connect();
    session.sendMessage('go');
    await flushMicrotasks();
    expect(started).toEqual(['a', 'b']);
    gates.b.resolve('B');
    await flushMicrotasks();
    gates.a.resolve('A');
    await flushMicrotasks();
    expect(outputs(model)).toEqual([
      ['cb', 'B'],
      ['ca', 'A'],
    ]);
    await session.close();
  });

  test('runs calls one at a time, in order, with asyncToolCalls: false', async () => {
    const gates = { a: deferred<string>(), b: deferred<string>() };
    const started: string[] = [];
    const wait = tool({
      name: 'wait',
      description: 'Waits for a gate',
      parameters: z.object({ gate: z.enum(['a', 'b']) }),
      execute: ({ gate }) => {
        started.push(gate);
        return gates[gate].promise;
      },
    });
    const { model, session } = setup(new Agent({ name: 'A', tools: [wait] }), { asyncToolCalls: false });
    model.respondWith({
      output: [
        { type: 'function_call', name: 'wait', arguments: { gate: 'a' }, callId: 'ca' },
        { type: 'function_call', name: 'wait', arguments: { gate: 'b' }, callId: 'cb' },
      ],
    });
    await session.connect();
    session.sendMessage('go');
    await flushMicrotasks();
    expect(started).toEqual(['a']);
    gates.b.resolve('B');
    await flushMicrotasks();
    expect(started).toEqual(['a']);
    gates.a.resolve('A');
    await flushMicrotasks();
    expect(started).toEqual(['a', 'b']);
    expect(outputs(model)).toEqual([
      ['ca', 'A'],
      ['cb', 'B'],
    ]);
    await session.close();
  });

  test('invalid arguments: an error output to the model, execute never runs, the session goes on', async () => {
    let ran = false;
    const book = tool({
      name: 'book',
      description: 'Books a table',
      parameters: z.object({ people: z.number().int().positive() }),
      execute: () => {
        ran = true;
        return 'booked';
      },
    });
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [book] }));
    model.respondWith(
      { output: [{ type: 'function_call', name: 'book', arguments: { people: 'four' }, callId: 'c1' }] },
      'Sorry, how many people?',
    );
    await session.connect();
    session.sendMessage('table for four');
    await flushMicrotasks();
    expect(ran).toBe(false);
    expect(outputs(model)[0]?.[1]).toMatch(/^Invalid arguments for tool "book": people: /);
    expect(log.of('tool_done')[0]).toMatchObject({ callId: 'c1', status: 'invalid_arguments' });
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Sorry, how many people?' });
    await session.close();
  });

  test('an unknown tool: an error output and an error event, the session goes on', async () => {
    const { model, session, log } = setup(new Agent({ name: 'A' }));
    model.respondWith(
      { output: [{ type: 'function_call', name: 'launch_rockets', callId: 'c1' }] },
      'I cannot do that.',
    );
    await session.connect();
    session.sendMessage('launch');
    await flushMicrotasks();
    expect(outputs(model)).toEqual([
      ['c1', 'Error: there is no tool named "launch_rockets". Use only the tools you were given.'],
    ]);
    expect(log.of('error')[0]).toMatchObject({ source: 'tool', code: 'tool_not_found' });
    expect(log.of('error')[0]?.message).toMatch(/agent "A" does not have/);
    expect(session.history.at(-1)).toMatchObject({ text: 'I cannot do that.' });
    await session.close();
  });

  test('execute gets the validated input, the agent, the call and the session context', async () => {
    const seen: unknown[] = [];
    const whoami = tool({
      name: 'whoami',
      description: 'Context probe',
      parameters: z.object({ n: z.number().default(1) }),
      execute: (input, { agent, call, runContext }) => {
        seen.push(input, agent.name, call.callId, runContext.context);
        return { ok: true };
      },
    });
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const session = new RealtimeSession(new Agent({ name: 'Probe', tools: [whoami] }), {
      model,
      context: { userId: 'u1' },
    });
    model.respondWith({ output: [{ type: 'function_call', name: 'whoami', callId: 'c1' }] });
    await session.connect();
    session.sendMessage('who');
    await flushMicrotasks();
    expect(seen).toEqual([{ n: 1 }, 'Probe', 'c1', { userId: 'u1' }]);
    expect(outputs(model)).toEqual([['c1', '{"ok":true}']]);
    await session.close();
  });
});

const makePay = (log: string[]) =>
  tool({
    name: 'pay',
    description: 'Pays an amount',
    parameters: z.object({ amount: z.number() }),
    needsApproval: (_ctx, { amount }) => amount > 10,
    execute: ({ amount }) => {
      log.push(`paid ${amount}`);
      return `paid ${amount}`;
    },
  });

describe('approvals', () => {
  test('a call needing approval waits; approve() runs it and the output goes out', async () => {
    const ran: string[] = [];
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [makePay(ran)] }));
    model.respondWith(
      { output: [{ type: 'function_call', name: 'pay', arguments: { amount: 50 }, callId: 'c1' }] },
      'Paid.',
    );
    await session.connect();
    session.sendMessage('pay 50');
    await flushMicrotasks();
    expect(log.of('tool_approval_requested')).toEqual([
      expect.objectContaining({ callId: 'c1', name: 'pay', arguments: '{"amount":50}' }),
    ]);
    expect(session.pendingApprovals.map((p) => p.callId)).toEqual(['c1']);
    expect(ran).toEqual([]);
    expect(outputs(model)).toEqual([]);
    session.approve('c1');
    await flushMicrotasks();
    expect(ran).toEqual(['paid 50']);
    expect(outputs(model)).toEqual([['c1', 'paid 50']]);
    expect(session.pendingApprovals).toEqual([]);
    expect(session.history.at(-1)).toMatchObject({ text: 'Paid.' });
    await session.close();
  });

  test('reject() sends the rejection message as the output and the session goes on', async () => {
    const ran: string[] = [];
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [makePay(ran)] }));
    model.respondWith(
      { output: [{ type: 'function_call', name: 'pay', arguments: { amount: 50 }, callId: 'c1' }] },
      'OK, not paying.',
    );
    await session.connect();
    session.sendMessage('pay 50');
    await flushMicrotasks();
    session.reject('c1', { message: 'The user declined the payment.' });
    await flushMicrotasks();
    expect(ran).toEqual([]);
    expect(outputs(model)).toEqual([['c1', 'The user declined the payment.']]);
    expect(log.of('tool_done')[0]).toMatchObject({ callId: 'c1', status: 'approval_rejected' });
    expect(session.history.at(-1)).toMatchObject({ text: 'OK, not paying.' });
    await session.close();
  });

  test('calls that need no approval run at once; always: true settles later calls of that tool', async () => {
    const ran: string[] = [];
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [makePay(ran)] }));
    model.respondWith(
      {
        output: [
          { type: 'function_call', name: 'pay', arguments: { amount: 5 }, callId: 'small' },
          { type: 'function_call', name: 'pay', arguments: { amount: 20 }, callId: 'big' },
        ],
      },
      { output: [{ type: 'function_call', name: 'pay', arguments: { amount: 30 }, callId: 'later' }] },
      'All paid.',
    );
    await session.connect();
    session.sendMessage('pay');
    await flushMicrotasks();
    expect(ran).toEqual(['paid 5']);
    session.approve('big', { always: true });
    await flushMicrotasks();
    expect(ran).toEqual(['paid 5', 'paid 20', 'paid 30']);
    expect(log.of('tool_approval_requested').map((e) => e.callId)).toEqual(['big']);
    await session.close();
  });

  test('deciding an unknown call is a typed error', async () => {
    const { session } = setup(new Agent({ name: 'A' }));
    await session.connect();
    expect(() => session.approve('nope')).toThrow(UserError);
    expect(() => session.reject('nope')).toThrow(/No tool call "nope" is waiting for approval/);
    await session.close();
  });
});

describe('tool guardrails and timeouts', () => {
  const guarded = (input: ToolGuardrailDecision, output: ToolGuardrailDecision, log: string[]) =>
    tool({
      name: 'transfer',
      description: 'Moves money',
      parameters: z.object({ to: z.string() }),
      inputGuardrails: [{ name: 'in', execute: () => input }],
      outputGuardrails: [{ name: 'out', execute: () => output }],
      execute: ({ to }) => {
        log.push(to);
        return `sent to ${to}`;
      },
    });

  test('an input guardrail rejecting the content: execute never runs, the model sees the message', async () => {
    const ran: string[] = [];
    const { model, session, log } = setup(
      new Agent({
        name: 'A',
        tools: [guarded({ type: 'reject_content', message: 'Blocked recipient.' }, { type: 'allow' }, ran)],
      }),
    );
    model.respondWith({
      output: [{ type: 'function_call', name: 'transfer', arguments: { to: 'x' }, callId: 'c1' }],
    });
    await session.connect();
    session.sendMessage('send');
    await flushMicrotasks();
    expect(ran).toEqual([]);
    expect(outputs(model)).toEqual([['c1', 'Blocked recipient.']]);
    expect(log.of('tool_done')[0]?.status).toBe('rejected_by_guardrail');
    await session.close();
  });

  test('an output guardrail replaces the output', async () => {
    const ran: string[] = [];
    const { model, session } = setup(
      new Agent({
        name: 'A',
        tools: [guarded({ type: 'allow' }, { type: 'reject_content', message: '[redacted]' }, ran)],
      }),
    );
    model.respondWith({
      output: [{ type: 'function_call', name: 'transfer', arguments: { to: 'bob' }, callId: 'c1' }],
    });
    await session.connect();
    session.sendMessage('send');
    await flushMicrotasks();
    expect(ran).toEqual(['bob']);
    expect(outputs(model)).toEqual([['c1', '[redacted]']]);
    await session.close();
  });

  test('a tool guardrail tripwire: an error event, an error output, and the session goes on', async () => {
    const ran: string[] = [];
    const { model, session, log } = setup(
      new Agent({
        name: 'A',
        tools: [guarded({ type: 'throw_exception', outputInfo: 'fraud' }, { type: 'allow' }, ran)],
      }),
    );
    model.respondWith(
      { output: [{ type: 'function_call', name: 'transfer', arguments: { to: 'x' }, callId: 'c1' }] },
      'Stopped.',
    );
    await session.connect();
    session.sendMessage('send');
    await flushMicrotasks();
    expect(ran).toEqual([]);
    expect(log.of('error')[0]).toMatchObject({ source: 'tool', code: 'tool_guardrail_tripwire' });
    expect(outputs(model)[0]?.[1]).toMatch(
      /^Error: the call to "transfer" was stopped: Tool guardrail "in" stopped tool "transfer"/,
    );
    expect(log.of('tool_done')[0]?.status).toBe('error');
    expect(session.history.at(-1)).toMatchObject({ text: 'Stopped.' });
    await session.close();
  });

  test('toolTimeoutMs applies to tools without their own timeout, on the injected clock', async () => {
    const clock = new ManualClock();
    const never = tool({
      name: 'never',
      description: 'Never returns',
      parameters: z.object({}),
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    const quick = tool({
      name: 'quick_timeout',
      description: 'Has its own timeout',
      parameters: z.object({}),
      timeoutMs: 100,
      execute: () => new Promise(() => {}),
    });
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [never, quick] }), {
      clock,
      toolTimeoutMs: 5000,
    });
    model.respondWith({
      output: [
        { type: 'function_call', name: 'never', callId: 'slow' },
        { type: 'function_call', name: 'quick_timeout', callId: 'fast' },
      ],
    });
    await session.connect();
    session.sendMessage('go');
    await flushMicrotasks();
    await clock.advance(100);
    expect(outputs(model).map(([id]) => id)).toEqual(['fast']);
    await clock.advance(4899);
    expect(outputs(model)).toHaveLength(1);
    await clock.advance(1);
    expect(outputs(model).map(([id]) => id)).toEqual(['fast', 'slow']);
    expect(outputs(model)[1]?.[1]).toMatch(/did not finish within 5000 ms/);
    expect(log.of('tool_done').map((e) => e.status)).toEqual(['failed', 'failed']);
    await session.close();
  });
});

describe('a failing tool', () => {
  const failure = new Error('database unreachable at 10.0.0.7 (password=hunter2)');

  test('the model gets a generic failure, never the error text; tool_done carries the error', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up a record',
      parameters: z.object({}),
      execute: () => {
        throw failure;
      },
    });
    const guarded = tool({
      name: 'guarded',
      description: 'Has a guardrail that throws',
      parameters: z.object({}),
      inputGuardrails: [
        {
          name: 'broken_check',
          execute: () => {
            throw failure;
          },
        },
      ],
      execute: () => 'ran',
    });
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [lookup, guarded] }));
    model.respondWith({
      output: [
        { type: 'function_call', name: 'lookup', callId: 'c1' },
        { type: 'function_call', name: 'guarded', callId: 'c2' },
      ],
    });
    await session.connect();
    session.sendMessage('go');
    await flushMicrotasks();
    expect(Object.fromEntries(outputs(model))).toEqual({
      c1: 'An error occurred while running the tool. Please try again.',
      c2: 'Error: the call to "guarded" was stopped.',
    });
    expect(JSON.stringify(model.commands)).not.toContain('hunter2');
    const done = log.of('tool_done').map((e) => [e.callId, e.status, e.error]);
    expect(done.sort()).toEqual([
      ['c1', 'failed', failure],
      ['c2', 'error', failure],
    ]);
    await session.close();
  });
  test('toolErrorFormatter is the opt-in: its text reaches the model for a failure and a bare rejection', async () => {
    const ran: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up a record',
      parameters: z.object({}),
      execute: () => {
        throw failure;
      },
    });
    const seen: unknown[] = [];
    const { model, session, log } = setup(new Agent({ name: 'A', tools: [lookup, makePay(ran)] }), {
      context: { shop: 'north' },
      toolErrorFormatter: ({ kind, toolName, callId, error, defaultMessage, context }) => {
        seen.push({ kind, toolName, callId, error, defaultMessage, context: context.context });
        return kind === 'execution_failed'
          ? `${toolName} failed: ${(error as Error).message.split(' at ')[0]}`
          : undefined;
      },
    });
    model.respondWith({
      output: [
        { type: 'function_call', name: 'lookup', callId: 'c1' },
        { type: 'function_call', name: 'pay', arguments: { amount: 50 }, callId: 'c2' },
      ],
    });
    await session.connect();
    session.sendMessage('go');
    await flushMicrotasks();
    session.reject('c2');
    await flushMicrotasks();
    expect(Object.fromEntries(outputs(model))).toEqual({
      c1: 'lookup failed: database unreachable',
      c2: 'The user rejected the call to "pay". Do not call it again.',
    });
    expect(seen).toEqual([
      {
        kind: 'execution_failed',
        toolName: 'lookup',
        callId: 'c1',
        error: failure,
        defaultMessage: 'An error occurred while running the tool. Please try again.',
        context: { shop: 'north' },
      },
      {
        kind: 'approval_rejected',
        toolName: 'pay',
        callId: 'c2',
        error: undefined,
        defaultMessage: 'The user rejected the call to "pay". Do not call it again.',
        context: { shop: 'north' },
      },
    ]);
    expect(log.of('tool_done').map((e) => [e.callId, e.status])).toEqual([
      ['c1', 'failed'],
      ['c2', 'approval_rejected'],
    ]);
    expect(ran).toEqual([]);
    await session.close();
  });

  test('a toolErrorFormatter that is not a function fails before connecting', () => {
    expect(
      () =>
        new RealtimeSession(new Agent({ name: 'A' }), {
          model: new MockRealtimeModel(),
          toolErrorFormatter: 'verbose' as never,
        }),
    ).toThrow(/toolErrorFormatter must be a function/);
  });
});

describe('agent binding', () => {
  test('each call runs against the agent whose response produced it, even after a handoff', async () => {
    const used: string[] = [];
    const legacy = tool({
      name: 'legacy_lookup',
      description: 'Only the first agent has this',
      parameters: z.object({}),
      execute: (_input, { agent }) => {
        used.push(agent.name);
        return 'found';
      },
    });
    const specialist = new Agent({ name: 'Specialist', instructions: 'Specialist here.' });
    const triage = new Agent({ name: 'Triage', tools: [legacy], handoffs: [specialist] });
    const { model, session, log } = setup(triage);
    model.respondWith(
      {
        output: [
          { type: 'function_call', name: 'transfer_to_specialist', callId: 'h1' },
          { type: 'pause' },
          { type: 'function_call', name: 'legacy_lookup', callId: 'c1' },
        ],
      },
      'Specialist here, found it.',
    );
    await session.connect();
    session.sendMessage('help');
    await flushMicrotasks();
    expect(session.currentAgent).toBe(specialist);
    model.connection.resume();
    await flushMicrotasks();
    expect(used).toEqual(['Triage']);
    expect(log.of('tool_started')[0]?.agent).toBe(triage);
    expect(log.of('error')).toHaveLength(0);
    expect(outputs(model)).toEqual([
      ['h1', '{"assistant":"Specialist"}'],
      ['c1', 'found'],
    ]);
    model.assertComplete();
    await session.close();
  });
});
