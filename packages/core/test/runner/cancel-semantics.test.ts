import {
  AbortError,
  Agent,
  MaxTurnsExceededError,
  MemorySession,
  type OutputGuardrail,
  OutputGuardrailTripwireTriggered,
  type RunStreamEvent,
  run,
} from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';
import { adder } from './fixtures.js';

/** A consumer that is slow: each await lets the event loop turn (no timers involved). */
const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

function label(event: RunStreamEvent<unknown>): string {
  if (event.type === 'run_item') return event.name;
  if (event.type === 'agent_updated') return `agent:${event.agent.name}`;
  if (event.type === 'agent_tool_event') return `${event.toolCallId}:${label(event.event)}`;
  return event.data.type;
}

describe("cancel('after_turn') holds however slowly the consumer reads", () => {
  test.each(['response_started', 'tool_called', 'tool_output'])(
    'issued on %s of turn 1 after two awaits: no second model call, no second tool run',
    async (trigger) => {
      const { add, calls } = adder();
      const model = new MockModel([
        MockModel.toolCall('add', { a: 1, b: 1 }),
        MockModel.toolCall('add', { a: 2, b: 2 }),
        MockModel.text('never'),
      ]);
      const result = await run(new Agent({ name: 'A', tools: [add], model }), 'go', { stream: true });
      const seen: string[] = [];
      for await (const event of result) {
        seen.push(label(event));
        if (label(event) === trigger) {
          await macrotask();
          await macrotask();
          result.cancel('after_turn');
        }
      }
      await result.completed;
      expect(model.callCount).toBe(1);
      expect(calls).toEqual([{ a: 1, b: 1 }]);
      expect(seen.at(-1)).toBe('tool_output');
      expect(result.state.status).toBe('in_progress');
      expect(result.state.currentTurn).toBe(1);
    },
  );

  test("on the handoff event: the delegate's model is never called", async () => {
    for (const trigger of ['handoff_occurred', 'agent:Billing']) {
      const billingModel = new MockModel([MockModel.text('never')]);
      const billing = new Agent({ name: 'Billing', model: billingModel });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing],
        model: new MockModel([MockModel.handoff('Billing')]),
      });
      const result = await run(triage, 'refund', { stream: true });
      for await (const event of result) {
        if (label(event) === trigger) {
          await macrotask();
          await macrotask();
          result.cancel('after_turn');
        }
      }
      await result.completed;
      expect(billingModel.callCount).toBe(0);
      expect(result.lastAgent).toBe(billing);
      expect(result.state.status).toBe('in_progress');
      // The state resumes with the delegate.
      expect((await run(triage, result.state)).finalOutput).toBe('never');
    }
  });

  test('a run nobody reads, or whose reader left the loop, is not held', async () => {
    const { add } = adder();
    const unread = await run(
      new Agent({
        name: 'A',
        tools: [add],
        model: new MockModel([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('2')]),
      }),
      'go',
      { stream: true },
    );
    await unread.completed;
    expect(unread.finalOutput).toBe('2');
    const left = await run(
      new Agent({
        name: 'A',
        tools: [add],
        model: new MockModel([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('2')]),
      }),
      'go',
      { stream: true },
    );
    for await (const event of left) if (event.type === 'run_item') break;
    await left.completed;
    expect(left.finalOutput).toBe('2');
  });

  test('a reader that stops asking holds the run at each turn boundary; aborting then ends it at once', async () => {
    const { add, calls } = adder();
    const model = new MockModel([
      MockModel.toolCall('add', { a: 1, b: 1 }),
      MockModel.toolCall('add', { a: 2, b: 2 }),
      MockModel.text('done'),
    ]);
    const controller = new AbortController();
    const result = await run(new Agent({ name: 'A', tools: [add], model }), 'go', {
      stream: true,
      signal: controller.signal,
    });
    const reader = result[Symbol.asyncIterator]();
    await macrotask();
    // Held after turn 1: the reader has not asked for anything yet.
    expect(model.callCount).toBe(1);
    const firstTurn: string[] = [];
    for (let i = 0; i < 6; i++) firstTurn.push(label((await reader.next()).value));
    expect(firstTurn).toEqual([
      'agent:A',
      'response_started',
      'response_done',
      'tool_called',
      'tool_output',
      'response_started',
    ]);
    await macrotask();
    // Asking for the 6th event let turn 2 run; the reader stopped asking during it, so the run is held again.
    expect(model.callCount).toBe(2);
    expect(calls).toHaveLength(2);
    controller.abort(new Error('user left'));
    await expect(result.completed).rejects.toBeInstanceOf(AbortError);
    expect(model.callCount).toBe(2);
    expect(result.state.status).toBe('aborted');
  });
});

describe('an immediate cancel wins while output guardrails run', () => {
  function guardrailThatReturnsOnAbort(started: () => void): OutputGuardrail {
    return {
      name: 'slow_but_polite',
      execute: ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ tripwireTriggered: false }), { once: true });
          started();
        }),
    };
  }

  test('an aborted signal: AbortError (streamed: the same error), no final output, nothing in the session', async () => {
    await bothWays(async (h) => {
      const controller = new AbortController();
      const session = new MemorySession();
      const agent = new Agent({
        name: 'A',
        outputGuardrails: [guardrailThatReturnsOnAbort(() => controller.abort())],
        model: h.model([MockModel.text('final')]),
      });
      const error = await h.run(agent, 'hi', { signal: controller.signal, session }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortError);
      expect(await session.getItems()).toEqual([]);
    });
  });

  test("cancel('immediate'): the run ends aborted, with no final output and nothing persisted", async () => {
    const session = new MemorySession();
    let cancel = () => {};
    const agent = new Agent({
      name: 'A',
      outputGuardrails: [guardrailThatReturnsOnAbort(() => cancel())],
      model: new MockModel([MockModel.text('final')]),
    });
    const result = await run(agent, 'hi', { stream: true, session });
    cancel = () => result.cancel('immediate');
    await result.completed;
    expect(result.state.status).toBe('aborted');
    expect(result.finalOutput).toBeUndefined();
    expect(await session.getItems()).toEqual([]);
  });
});

describe('a failed run keeps the tool calls that completed in the session', () => {
  test('an output guardrail trips after tools ran: the call/output pairs stay, the final message does not', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const session = new MemorySession();
      const agent = new Agent({
        name: 'A',
        tools: [add],
        outputGuardrails: [{ name: 'trip', execute: () => ({ tripwireTriggered: true }) }],
        model: h.model([MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.text('rejected answer')]),
      });
      await expect(h.run(agent, 'add', { session })).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect(await session.getItems()).toEqual([
        { type: 'message', role: 'user', content: 'add' },
        { type: 'function_call', callId: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' },
        { type: 'function_call_output', callId: 'call_1', output: '3' },
      ]);
    });
  });

  test('MaxTurnsExceeded keeps the pairs; resuming adds only what is new', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const session = new MemorySession();
      const agent = new Agent({
        name: 'A',
        tools: [add],
        model: h.model([MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.text('3')]),
      });
      const error = await h.run(agent, 'add', { session, maxTurns: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MaxTurnsExceededError);
      expect((await session.getItems()).map((item) => item.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
      ]);
      await h.run(agent, (error as MaxTurnsExceededError).state, { session, maxTurns: 2 });
      expect((await session.getItems()).map((item) => item.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
        'message',
      ]);
    });
  });

  test('a run that fails before any tool completed writes nothing', async () => {
    await bothWays(async (h) => {
      const session = new MemorySession();
      const agent = new Agent({
        name: 'A',
        outputGuardrails: [{ name: 'trip', execute: () => ({ tripwireTriggered: true }) }],
        model: h.model([MockModel.text('rejected')]),
      });
      await expect(h.run(agent, 'hi', { session })).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect(await session.getItems()).toEqual([]);
    });
  });
});
