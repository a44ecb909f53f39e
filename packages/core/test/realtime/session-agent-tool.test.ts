import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, type RealtimeSessionEventOf, tool } from '@parley/core';
import { flushMicrotasks, MockModel, MockRealtimeModel } from '@parley/mock';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from '../tracing/spans.js';

/** A voice front whose only tool is a text specialist (run by the Runner) with a refund needing approval. */
function voiceFront() {
  const refunds: string[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: ({ orderId }) => {
      refunds.push(orderId);
      return `Refunded ${orderId}`;
    },
  });
  const specialistModel = new MockModel([
    MockModel.toolCall('refund', { orderId: 'A1' }, { callId: 'inner_1' }),
    MockModel.text('Order A1 is refunded.'),
  ]);
  const specialist = new Agent({ name: 'Billing', tools: [refund], model: specialistModel });
  const voice = new Agent({
    name: 'Voice',
    tools: [specialist.asTool({ name: 'billing', description: 'Handles refunds.' })],
  });
  const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
  const session = new RealtimeSession(voice, { model });
  const log = new EventRecorder(session);
  model.respondWith(
    {
      output: [
        { type: 'function_call', name: 'billing', arguments: { input: 'Refund A1' }, callId: 'outer_1' },
      ],
    },
    'Done, your refund is on its way.',
  );
  return { session, model, log, refunds, specialist, specialistModel };
}

const outputs = (model: MockRealtimeModel) =>
  model.commands.flatMap((c) => (c.type === 'sendToolOutput' ? [[c.callId, c.output]] : []));

describe('an agent tool in a realtime session', () => {
  let tracing: ReturnType<typeof memoryTracing> | undefined;
  afterEach(() => {
    tracing?.close();
    tracing = undefined;
  });

  test('the specialist’s approval is asked through the session; approve() resumes it and its answer is the output', async () => {
    const g = voiceFront();
    await g.session.connect();
    g.session.sendMessage('refund A1');
    await flushMicrotasks();
    expect(g.log.of('tool_approval_requested')).toEqual([
      expect.objectContaining({
        callId: 'inner_1',
        name: 'refund',
        arguments: '{"orderId":"A1"}',
        agent: g.specialist,
      }),
    ]);
    expect(g.session.pendingApprovals.map((p) => p.callId)).toEqual(['inner_1']);
    expect(g.refunds).toEqual([]);
    expect(outputs(g.model)).toEqual([]);
    g.session.approve('inner_1');
    await flushMicrotasks();
    expect(g.refunds).toEqual(['A1']);
    expect(outputs(g.model)).toEqual([['outer_1', 'Order A1 is refunded.']]);
    expect(g.session.history.at(-1)).toMatchObject({ text: 'Done, your refund is on its way.' });
    await g.session.close();
  });

  test('reject() reaches the specialist’s model; closing the session cancels a specialist still waiting', async () => {
    const g = voiceFront();
    await g.session.connect();
    g.session.sendMessage('refund A1');
    await flushMicrotasks();
    g.session.reject('inner_1', { message: 'Not today.' });
    await flushMicrotasks();
    expect(g.refunds).toEqual([]);
    expect(g.specialistModel.requests[1]?.input.at(-1)).toEqual({
      type: 'function_call_output',
      callId: 'inner_1',
      output: 'Not today.',
    });
    expect(outputs(g.model)).toEqual([['outer_1', 'Order A1 is refunded.']]);

    const h = voiceFront();
    await h.session.connect();
    h.session.sendMessage('refund A1');
    await flushMicrotasks();
    expect(h.session.pendingApprovals).toHaveLength(1);
    await h.session.close();
    expect(h.session.pendingApprovals).toEqual([]);
    expect(outputs(h.model)).toEqual([]);
    expect(h.refunds).toEqual([]);
    await g.session.close();
  });

  test("the specialist's run streams into the session as agent_tool_event, tagged with its agent, tool and call", async () => {
    const g = voiceFront();
    const nested: RealtimeSessionEventOf<'agent_tool_event'>[] = [];
    const order: string[] = [];
    g.session.on('agent_tool_event', (event) => {
      nested.push(event);
      order.push(`nested ${event.event.type}`);
    });
    g.session.on('tool_approval_requested', (event) => order.push(`approval ${event.callId}`));
    g.session.on('tool_done', (event) => order.push(`tool_done ${event.callId}`));
    await g.session.connect();
    g.session.sendMessage('refund A1');
    await flushMicrotasks();
    g.session.approve('inner_1');
    await flushMicrotasks();

    expect(nested.length).toBeGreaterThan(0);
    for (const event of nested) {
      expect(event).toMatchObject({ agent: g.specialist, toolName: 'billing', toolCallId: 'outer_1' });
    }
    const items = nested.flatMap(({ event }) =>
      event.type === 'run_item' ? [`${event.name} ${event.item.type}`] : [],
    );
    expect(items).toEqual([
      'tool_called tool_call_item',
      'tool_approval_requested tool_approval_item',
      // resumed after approve(): the approved call's output, then the answer
      'tool_output tool_call_output_item',
      'message_output_created message_output_item',
    ]);
    // The specialist's model was streamed; its events came before the outer call's output, around its approval.
    expect(g.specialistModel.calls.map((call) => call.streamed)).toEqual([true, true]);
    expect(order.indexOf('approval inner_1')).toBeGreaterThan(0);
    expect(order.at(-1)).toBe('tool_done outer_1');
    expect(order.slice(0, -1).every((entry) => !entry.startsWith('tool_done'))).toBe(true);
    await g.session.close();
  });

  test('nobody listening: the specialist runs unstreamed and no agent_tool_event is made', async () => {
    const specialistModel = new MockModel([MockModel.text('Order A1 is on its way.')]);
    const specialist = new Agent({ name: 'Billing', model: specialistModel });
    const voice = new Agent({
      name: 'Voice',
      tools: [specialist.asTool({ name: 'billing', description: 'd' })],
    });
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    model.respondWith(
      {
        output: [{ type: 'function_call', name: 'billing', arguments: { input: 'A1?' }, callId: 'outer_1' }],
      },
      'It is on its way.',
    );
    const session = new RealtimeSession(voice, { model });
    const done = new Promise<string>((resolve) => session.on('tool_done', (event) => resolve(event.output)));
    await session.connect();
    session.sendMessage('where is A1?');
    expect(await done).toBe('Order A1 is on its way.');
    expect(specialistModel.calls.map((call) => call.streamed)).toEqual([false]);
    await session.close();
  });

  test("the specialist's run is traced under the session's tool-call span", async () => {
    tracing = memoryTracing();
    const g = voiceFront();
    await g.session.connect();
    g.session.sendMessage('refund A1');
    await flushMicrotasks();
    g.session.approve('inner_1');
    await flushMicrotasks();
    await g.session.close();
    const tool = tracing.named('execute_tool billing')[0];
    const nested = tracing.named('invoke_agent Billing')[0];
    expect(tool).toBeDefined();
    expect(nested?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
  });
});
