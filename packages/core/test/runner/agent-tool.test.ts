import { AbortError, Agent, Runner, RunState, run, tool, UserError } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from '../tracing/spans.js';
import { bothWays, type Harness } from './both-ways.js';

/** A billing specialist with a lookup (no approval) and a refund (needs approval), and a manager calling it. */
function delegation(h: Harness, specialistScript = defaultSpecialistScript()) {
  const lookups: string[] = [];
  const refunds: { orderId: string; amount: number }[] = [];
  const contexts: unknown[] = [];
  const lookup = tool({
    name: 'lookup_order',
    description: 'Looks up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }, { runContext }) => {
      lookups.push(orderId);
      contexts.push(runContext.context);
      return { orderId, total: 250 };
    },
  });
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ orderId, amount }) => {
      refunds.push({ orderId, amount });
      return `Refunded ${amount} on ${orderId}`;
    },
  });
  // The nested run is not streamed, in either mode.
  const specialistModel = new MockModel(specialistScript);
  const specialist = new Agent({
    name: 'Billing specialist',
    instructions: 'You handle refunds.',
    tools: [lookup, refund],
    model: specialistModel,
  });
  const managerModel = h.model([
    MockModel.toolCall('billing', { input: 'Refund order A1' }, { callId: 'outer_1' }),
    MockModel.text('Your refund is on its way.'),
  ]);
  const manager = new Agent({
    name: 'Manager',
    tools: [specialist.asTool({ name: 'billing', description: 'Handles billing questions and refunds.' })],
    model: managerModel,
  });
  return { manager, specialist, managerModel, specialistModel, lookups, refunds, contexts };
}

function defaultSpecialistScript() {
  return [
    MockModel.turn(
      MockModel.toolCall('lookup_order', { orderId: 'A1' }, { callId: 'inner_1' }),
      MockModel.toolCall('refund', { orderId: 'A1', amount: 250 }, { callId: 'inner_2' }),
    ),
    MockModel.text('Refunded 250 on A1.'),
  ];
}

function outputsSeenBy(model: MockModel, request: number) {
  return model.requests[request]?.input.filter((item) => item.type === 'function_call_output');
}

describe('agent.asTool()', () => {
  test('the manager calls the specialist as a tool: its own run, its tools, the same context, its final output', async () => {
    await bothWays(async (h) => {
      const g = delegation(h, [
        MockModel.toolCall('lookup_order', { orderId: 'A1' }, { callId: 'inner_1' }),
        MockModel.text('Order A1 totals 250.'),
      ]);
      const result = await h.run(g.manager, 'What does order A1 cost?', { context: { user: 'u1' } });
      expect(result.finalOutput).toBe('Your refund is on its way.');
      expect(g.lookups).toEqual(['A1']);
      expect(g.contexts).toEqual([{ user: 'u1' }]);
      // The specialist ran its own conversation: its instructions, the manager's request as its input.
      expect(g.specialistModel.requests[0]?.systemInstructions).toBe('You handle refunds.');
      expect(g.specialistModel.requests[0]?.input).toEqual([
        { type: 'message', role: 'user', content: 'Refund order A1' },
      ]);
      expect(outputsSeenBy(g.managerModel, 1)).toEqual([
        { type: 'function_call_output', callId: 'outer_1', output: 'Order A1 totals 250.' },
      ]);
      // The specialist's own items stay in its run; the manager's run shows one call and its output.
      expect(result.newItems.map((item) => item.type)).toEqual([
        'tool_call_item',
        'tool_call_output_item',
        'message_output_item',
      ]);
      expect(g.managerModel.requests[0]?.tools.map((t) => t.name)).toEqual(['billing']);
      expect(g.managerModel.requests[0]?.tools[0]?.parameters).toMatchObject({
        type: 'object',
        properties: { input: { type: 'string' } },
        required: ['input'],
      });
    });
  });

  test('an approval inside the specialist pauses the outer run, survives serialization, and resumes it once', async () => {
    await bothWays(async (h) => {
      const g = delegation(h);
      const first = await h.run(g.manager, 'Refund order A1 please');
      expect(first.state.status).toBe('interrupted');
      expect(first.finalOutput).toBeUndefined();
      expect(first.interruptions).toHaveLength(1);
      expect(first.interruptions[0]).toMatchObject({
        type: 'tool_approval_item',
        agent: g.specialist,
        rawItem: { callId: 'inner_2', name: 'refund', arguments: '{"orderId":"A1","amount":250}' },
      });
      expect(g.lookups).toEqual(['A1']);
      expect(g.refunds).toEqual([]);
      // The outer call has no output yet: the manager's model is not called again.
      expect(g.managerModel.callCount).toBe(1);

      const restored = RunState.fromString(g.manager, first.state.toString());
      expect(restored.getInterruptions().map((item) => item.rawItem.callId)).toEqual(['inner_2']);
      restored.approve(restored.getInterruptions()[0]!);
      const decided = RunState.fromString(g.manager, restored.toString());

      const second = await h.run(g.manager, decided);
      expect(second.finalOutput).toBe('Your refund is on its way.');
      expect(second.interruptions).toEqual([]);
      expect(g.refunds).toEqual([{ orderId: 'A1', amount: 250 }]);
      // Nothing ran twice: the lookup before the pause, the specialist's first model call.
      expect(g.lookups).toEqual(['A1']);
      expect(g.specialistModel.callCount).toBe(2);
      expect(outputsSeenBy(g.specialistModel, 1)).toEqual([
        { type: 'function_call_output', callId: 'inner_1', output: '{"orderId":"A1","total":250}' },
        { type: 'function_call_output', callId: 'inner_2', output: 'Refunded 250 on A1' },
      ]);
      expect(outputsSeenBy(g.managerModel, 1)).toEqual([
        { type: 'function_call_output', callId: 'outer_1', output: 'Refunded 250 on A1.' },
      ]);
    });
  });

  test('a rejection inside the specialist reaches its model, not the manager run', async () => {
    await bothWays(async (h) => {
      const g = delegation(h);
      const first = await h.run(g.manager, 'Refund order A1 please');
      first.state.reject(first.interruptions[0]!, { message: 'Refunds are frozen today.' });
      const second = await h.run(g.manager, first.state);
      expect(second.finalOutput).toBe('Your refund is on its way.');
      expect(g.refunds).toEqual([]);
      expect(outputsSeenBy(g.specialistModel, 1)?.at(-1)).toEqual({
        type: 'function_call_output',
        callId: 'inner_2',
        output: 'Refunds are frozen today.',
      });
    });
  });

  test('a state paused inside an agent tool cannot be restored without that tool', () => {
    const g = delegation({ mode: 'plain', model: (s) => new MockModel(s), run: run as never, events: [] });
    return run(g.manager, 'Refund order A1 please').then((first) => {
      const text = first.state.toString();
      const renamed = new Agent({ name: 'Manager', tools: [] });
      expect(() => RunState.fromString(renamed, text)).toThrow(UserError);
      expect(() => RunState.fromString(renamed, text)).toThrow(/agent tool "billing"/);
    });
  });

  test('aborting the outer run aborts the specialist run and its running tool', async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = tool({
      name: 'slow',
      description: 'Waits until aborted',
      parameters: z.object({}),
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          toolSignal = signal;
          started();
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const specialist = new Agent({
      name: 'Specialist',
      tools: [slow],
      model: new MockModel([MockModel.toolCall('slow', {})]),
    });
    const manager = new Agent({
      name: 'Manager',
      tools: [specialist.asTool({ description: 'Does slow work.' })],
      model: new MockModel([MockModel.toolCall('Specialist', { input: 'go' })]),
    });
    const controller = new AbortController();
    const outcome = run(manager, 'start', { signal: controller.signal });
    await running;
    controller.abort(new Error('user hung up'));
    await expect(outcome).rejects.toBeInstanceOf(AbortError);
    expect(toolSignal?.aborted).toBe(true);
  });

  test("the specialist's input guardrail tripping becomes an error output for the manager's model", async () => {
    const specialist = new Agent({
      name: 'Specialist',
      handoffDescription: 'Answers questions.',
      model: new MockModel([MockModel.text('never')]),
      inputGuardrails: [
        { name: 'no_secrets', execute: () => ({ tripwireTriggered: true, outputInfo: 'secret' }) },
      ],
    });
    const managerModel = new MockModel([
      MockModel.toolCall('Specialist', { input: 'the password is hunter2' }, { callId: 'c1' }),
      MockModel.text('I cannot help with that.'),
    ]);
    const manager = new Agent({ name: 'Manager', tools: [specialist.asTool()], model: managerModel });
    const result = await run(manager, 'hi');
    expect(result.finalOutput).toBe('I cannot help with that.');
    expect(outputsSeenBy(managerModel, 1)?.[0]?.output).toMatch(/no_secrets/);
  });

  test('custom parameters, input builder and output extractor; the runner given runs the nested run', async () => {
    const specialistModel = new MockModel([MockModel.json({ answer: 42 })]);
    const specialist = new Agent({
      name: 'Calc',
      outputType: z.object({ answer: z.number() }),
    });
    const calc = specialist.asTool({
      name: 'calc',
      description: 'Computes',
      parameters: z.object({ a: z.number(), b: z.number() }),
      inputBuilder: ({ a, b }) => `Multiply ${a} by ${b}`,
      outputExtractor: (result) => `The answer is ${(result.finalOutput as { answer: number }).answer}`,
      runner: new Runner({ model: specialistModel }),
    });
    expect(calc.agent).toBe(specialist);
    const managerModel = new MockModel([
      MockModel.toolCall('calc', { a: 6, b: 7 }, { callId: 'c1' }),
      MockModel.text('42'),
    ]);
    await run(new Agent({ name: 'M', tools: [calc], model: managerModel }), 'six times seven');
    expect(specialistModel.requests[0]?.input).toEqual([
      { type: 'message', role: 'user', content: 'Multiply 6 by 7' },
    ]);
    expect(outputsSeenBy(managerModel, 1)?.[0]?.output).toBe('The answer is 42');
  });

  test("the specialist's run is traced under the manager's tool-call span", async () => {
    const tracing = memoryTracing();
    try {
      const g = delegation({ mode: 'plain', model: (s) => new MockModel(s), run: run as never, events: [] }, [
        MockModel.text('Done.'),
      ]);
      await run(g.manager, 'hi');
      expect(tracing.tree()).toEqual([
        {
          name: 'invoke_agent Manager',
          children: [
            {
              name: 'parley.turn',
              children: [
                { name: 'chat', children: [] },
                {
                  name: 'execute_tool billing',
                  children: [
                    {
                      name: 'invoke_agent Billing specialist',
                      children: [{ name: 'parley.turn', children: [{ name: 'chat', children: [] }] }],
                    },
                  ],
                },
              ],
            },
            { name: 'parley.turn', children: [{ name: 'chat', children: [] }] },
          ],
        },
      ]);
    } finally {
      tracing.close();
    }
  });

  test('bad options fail at once with a typed error', () => {
    const agent = new Agent({ name: 'Helper desk' });
    expect(() => agent.asTool()).toThrow(/needs a description/);
    expect(() => agent.asTool({ description: 'x', naem: 'y' } as never)).toThrow(/Did you mean 'name'/);
    expect(agent.asTool({ description: 'x' }).name).toBe('Helper_desk');
  });

  test('called outside a Runner or a session, an approval inside fails with a clear error', async () => {
    const g = delegation({ mode: 'plain', model: (s) => new MockModel(s), run: run as never, events: [] });
    const agentTool = g.manager.tools[0]!;
    const controller = new AbortController();
    await expect(
      agentTool.execute(
        { input: 'Refund A1' },
        {
          runContext: { context: undefined, usage: {} } as never,
          agent: g.manager,
          call: { callId: 'x', name: 'billing', arguments: '{}' },
          signal: controller.signal,
        },
      ),
    ).rejects.toThrow(/not called by a Runner or a RealtimeSession/);
  });
});
