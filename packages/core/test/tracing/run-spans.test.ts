import { Agent, ParleyError, run, tool } from '@parley/core';
import { MockModel, MockModelProvider } from '@parley/mock';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './spans.js';

const SECRET_INPUT = 'my card is 4111-SECRET-INPUT';
const SECRET_REPLY = 'Refund sent, SECRET-REPLY';
const SECRET_ARGS = 'ORDER-SECRET-ARG';
const SECRET_TOOL_OUTPUT = 'TOOL-SECRET-OUTPUT';

function scriptedAgents() {
  const lookup = tool({
    name: 'lookup_order',
    description: 'Looks up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: () => ({ status: SECRET_TOOL_OUTPUT }),
  });
  const triageModel = new MockModel([
    MockModel.toolCall('lookup_order', { orderId: SECRET_ARGS }, { callId: 'call_lookup' }),
    MockModel.handoff('Billing', { callId: 'call_handoff' }),
  ]);
  const billingModel = new MockModel([MockModel.text(SECRET_REPLY)]);
  const billing = new Agent({ name: 'Billing', model: 'billing-model' });
  const triage = new Agent({
    name: 'Triage',
    model: 'triage-model',
    tools: [lookup],
    handoffs: [billing],
    inputGuardrails: [
      {
        name: 'polite',
        runInParallel: false,
        execute: () => ({ tripwireTriggered: false, outputInfo: null }),
      },
    ],
  });
  const modelProvider = new MockModelProvider({
    models: { 'triage-model': triageModel, 'billing-model': billingModel },
  });
  return { triage, modelProvider };
}

describe('Runner tracing', () => {
  let tracing: ReturnType<typeof memoryTracing> | undefined;
  afterEach(() => {
    tracing?.close();
    tracing = undefined;
  });

  test('a scripted run gives one run span with a span per turn, model call, guardrail, tool call and handoff', async () => {
    tracing = memoryTracing();
    const { triage, modelProvider } = scriptedAgents();
    const result = await run(triage, SECRET_INPUT, { modelProvider });
    expect(result.finalOutput).toBe(SECRET_REPLY);

    expect(tracing.tree()).toEqual([
      {
        name: 'invoke_agent Triage',
        children: [
          {
            name: 'parley.turn',
            children: [
              { name: 'parley.guardrail polite', children: [] },
              { name: 'chat triage-model', children: [] },
              { name: 'execute_tool lookup_order', children: [] },
            ],
          },
          {
            name: 'parley.turn',
            children: [
              { name: 'chat triage-model', children: [] },
              { name: 'parley.handoff Billing', children: [] },
            ],
          },
          { name: 'parley.turn', children: [{ name: 'chat billing-model', children: [] }] },
        ],
      },
    ]);

    const [runSpan] = tracing.named('invoke_agent Triage');
    expect(runSpan?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Triage',
      'parley.run.status': 'completed',
    });
    const [firstCall, , billingCall] = tracing.spans().filter((span) => span.name.startsWith('chat '));
    expect(firstCall?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'mock',
      'gen_ai.request.model': 'triage-model',
      'gen_ai.agent.name': 'Triage',
    });
    expect(billingCall?.attributes['gen_ai.agent.name']).toBe('Billing');
    expect(firstCall?.attributes['gen_ai.usage.input_tokens']).toBe(
      result.rawResponses[0]?.usage.inputTokens,
    );
    expect(firstCall?.attributes['gen_ai.usage.output_tokens']).toBe(
      result.rawResponses[0]?.usage.outputTokens,
    );
    expect(runSpan?.attributes['gen_ai.usage.input_tokens']).toBe(result.state.usage.inputTokens);
    expect(tracing.named('execute_tool lookup_order')[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup_order',
      'gen_ai.tool.call.id': 'call_lookup',
      'parley.tool.status': 'completed',
    });
    expect(tracing.named('parley.handoff Billing')[0]?.attributes).toMatchObject({
      'parley.handoff.from_agent': 'Triage',
      'parley.handoff.to_agent': 'Billing',
      'gen_ai.tool.call.id': 'call_handoff',
    });
    expect(tracing.named('parley.guardrail polite')[0]?.attributes).toMatchObject({
      'parley.guardrail.kind': 'input',
      'parley.guardrail.tripwire_triggered': false,
    });
  });

  test('no span carries the input, the reply, tool arguments or tool output', async () => {
    tracing = memoryTracing();
    const { triage, modelProvider } = scriptedAgents();
    await run(triage, SECRET_INPUT, { modelProvider });
    const text = tracing.text();
    expect(text).toContain('lookup_order');
    for (const secret of ['SECRET-INPUT', 'SECRET-REPLY', SECRET_ARGS, SECRET_TOOL_OUTPUT]) {
      expect(text).not.toContain(secret);
    }
  });

  test('a failed model call fails its span, its turn and the run, with the error code', async () => {
    tracing = memoryTracing();
    const model = new MockModel([
      MockModel.error(new ParleyError('provider_unavailable', 'the provider is down')),
    ]);
    await expect(run(new Agent({ name: 'Solo', model }), 'hi')).rejects.toThrow('the provider is down');
    const failed = tracing.spans().filter((span) => span.status.code === 2);
    expect(failed.map((span) => span.name).sort()).toEqual(['chat', 'invoke_agent Solo', 'parley.turn']);
    expect(tracing.named('chat')[0]?.attributes['error.type']).toBe('provider_unavailable');
    expect(tracing.spans().every((span) => span.ended)).toBe(true);
  });

  test('without configureTracing nothing is traced', async () => {
    const spy = memoryTracing();
    spy.close();
    const { triage, modelProvider } = scriptedAgents();
    await run(triage, 'hello', { modelProvider });
    expect(spy.spans()).toEqual([]);
  });
});
