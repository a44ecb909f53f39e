import { Agent, Runner, type RunStreamEvent, tool } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from '../tracing/spans.js';

function graph() {
  const lookup = tool({
    name: 'lookup_order',
    description: 'Looks up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => ({ orderId, total: 250 }),
  });
  const specialistModel = new MockModel([
    MockModel.toolCall('lookup_order', { orderId: 'A1' }, { callId: 'inner_1' }),
    MockModel.text('Order A1 totals 250.'),
  ]);
  const specialist = new Agent({ name: 'Billing', tools: [lookup], model: specialistModel });
  const managerModel = new MockModel([
    MockModel.toolCall('billing', { input: 'What does A1 cost?' }, { callId: 'outer_1' }),
    MockModel.text('It costs 250.'),
  ]);
  const manager = new Agent({
    name: 'Manager',
    tools: [specialist.asTool({ name: 'billing', description: 'Billing questions.' })],
    model: managerModel,
  });
  return { manager, specialist, specialistModel };
}

/** A readable line per event: nested ones prefixed with their agent and outer call id. */
function describeEvent(event: RunStreamEvent): string {
  switch (event.type) {
    case 'agent_tool_event':
      return `[${event.agent.name}/${event.toolCallId}] ${describeEvent(event.event)}`;
    case 'run_item':
      return event.name;
    case 'agent_updated':
      return `agent ${event.agent.name}`;
    case 'raw_model_event':
      return event.data.type === 'text_delta' ? `delta ${event.data.delta}` : `raw ${event.data.type}`;
  }
}

describe('a streamed run carries the events of its agent tools runs', () => {
  test("the specialist's events arrive on the manager's stream, tagged, between the call and its output", async () => {
    const g = graph();
    const stream = await new Runner().run(g.manager, 'How much is A1?', { stream: true });
    const seen: string[] = [];
    for await (const event of stream) {
      if (event.type === 'raw_model_event' && event.data.type !== 'text_delta') continue;
      if (
        event.type === 'agent_tool_event' &&
        event.event.type === 'raw_model_event' &&
        event.event.data.type !== 'text_delta'
      )
        continue;
      seen.push(describeEvent(event));
    }
    await stream.completed;

    expect(stream.finalOutput).toBe('It costs 250.');
    const nested = seen.filter((line) => line.startsWith('[Billing/outer_1]'));
    expect(nested).toEqual([
      '[Billing/outer_1] agent Billing',
      '[Billing/outer_1] tool_called',
      '[Billing/outer_1] tool_output',
      expect.stringMatching(/^\[Billing\/outer_1\] delta /),
      ...nested.slice(4, -1),
      '[Billing/outer_1] message_output_created',
    ]);
    const called = seen.indexOf('tool_called');
    const output = seen.indexOf('tool_output');
    expect(called).toBeLessThan(seen.indexOf('[Billing/outer_1] agent Billing'));
    expect(output).toBeGreaterThan(seen.lastIndexOf('[Billing/outer_1] message_output_created'));
    // The specialist's run streamed its model (deltas reached the outer stream as they came).
    expect(g.specialistModel.calls.every((call) => call.streamed)).toBe(true);
    expect(
      nested
        .filter((line) => line.includes('delta'))
        .join('')
        .replaceAll('[Billing/outer_1] delta ', ''),
    ).toBe('Order A1 totals 250.');
  });

  test("the streamed specialist's run is traced under the manager's tool-call span", async () => {
    const tracing = memoryTracing();
    try {
      const g = graph();
      const stream = await new Runner().run(g.manager, 'How much is A1?', { stream: true });
      for await (const _ of stream);
      await stream.completed;
      const tool = tracing.named('execute_tool billing')[0];
      const nested = tracing.named('invoke_agent Billing')[0];
      expect(tool).toBeDefined();
      expect(nested?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
    } finally {
      tracing.close();
    }
  });

  test('a plain run does not stream the nested run', async () => {
    const g = graph();
    const result = await new Runner().run(g.manager, 'How much is A1?');
    expect(result.finalOutput).toBe('It costs 250.');
    expect(g.specialistModel.calls.some((call) => call.streamed)).toBe(false);
  });
});
