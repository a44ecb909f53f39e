import { Agent, type HandoffInputData, handoff, RunHooks } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';
import { orderLookup } from './fixtures.js';

describe('handoffs', () => {
  test('a handoff switches the agent and spends no turn until the new agent calls its model', async () => {
    await bothWays(async (h) => {
      const triageModel = h.model([MockModel.handoff('Billing')]);
      const billingModel = h.model([MockModel.text('Your refund is on its way.')]);
      const billing = new Agent({
        name: 'Billing',
        instructions: 'You handle billing.',
        handoffDescription: 'Refunds and invoices',
        model: billingModel,
      });
      const triage = new Agent({ name: 'Triage', handoffs: [billing], model: triageModel });
      const hooks = new RunHooks();
      const seen: string[] = [];
      hooks.on('agent_started', ({ agent, turn }) => {
        seen.push(`start ${agent.name} turn ${turn}`);
      });
      hooks.on('handoff', ({ fromAgent, toAgent, call }) => {
        seen.push(`handoff ${fromAgent.name}->${toAgent.name} via ${call.name}`);
      });
      const result = await h.run(triage, 'I want a refund', { hooks });
      expect(result.finalOutput).toBe('Your refund is on its way.');
      expect(result.lastAgent).toBe(billing);
      // Two model calls, two turns: the handoff itself did not count.
      expect(result.state.currentTurn).toBe(2);
      expect(seen).toEqual([
        'start Triage turn 1',
        'handoff Triage->Billing via transfer_to_billing',
        'start Billing turn 2',
      ]);
      expect(triageModel.requests[0]?.tools).toEqual([
        expect.objectContaining({
          name: 'transfer_to_billing',
          isHandoff: true,
          description: expect.stringContaining('Refunds and invoices'),
        }),
      ]);
      expect(billingModel.requests[0]?.systemInstructions).toBe('You handle billing.');
      expect(billingModel.requests[0]?.input).toEqual([
        { type: 'message', role: 'user', content: 'I want a refund' },
        { type: 'function_call', callId: 'call_1', name: 'transfer_to_billing', arguments: '{}' },
        { type: 'function_call_output', callId: 'call_1', output: '{"assistant":"Billing"}' },
      ]);
      expect(result.newItems.map((item) => [item.type, item.agent.name])).toEqual([
        ['handoff_call_item', 'Triage'],
        ['handoff_output_item', 'Triage'],
        ['message_output_item', 'Billing'],
      ]);
      const output = result.newItems[1];
      expect(output?.type === 'handoff_output_item' && [output.sourceAgent, output.targetAgent]).toEqual([
        triage,
        billing,
      ]);
      if (h.mode === 'streamed') {
        expect(
          h.events
            .filter((e) => e.type === 'agent_updated')
            .map((e) => e.type === 'agent_updated' && e.agent.name),
        ).toEqual(['Triage', 'Billing']);
      }
    });
  });

  test('with maxTurns 2, a handoff after one turn still leaves the new agent a turn', async () => {
    await bothWays(async (h) => {
      const billing = new Agent({ name: 'Billing', model: h.model([MockModel.text('done')]) });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing],
        model: h.model([MockModel.handoff('Billing')]),
      });
      const result = await h.run(triage, 'x', { maxTurns: 2 });
      expect(result.finalOutput).toBe('done');
    });
  });

  test('several handoffs in one response: the first is taken, the others get an error output', async () => {
    await bothWays(async (h) => {
      const billingModel = h.model([MockModel.text('billing here')]);
      const billing = new Agent({ name: 'Billing', model: billingModel });
      const shipping = new Agent({ name: 'Shipping', model: h.model([]) });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing, shipping],
        model: h.model([MockModel.turn(MockModel.handoff('Billing'), MockModel.handoff('Shipping'))]),
      });
      const result = await h.run(triage, 'help');
      expect(result.lastAgent).toBe(billing);
      expect(billingModel.requests[0]?.input.slice(1)).toEqual([
        { type: 'function_call', callId: 'call_1', name: 'transfer_to_billing', arguments: '{}' },
        { type: 'function_call', callId: 'call_2', name: 'transfer_to_shipping', arguments: '{}' },
        {
          type: 'function_call_output',
          callId: 'call_2',
          output:
            'Only one handoff can happen per turn: "transfer_to_billing" was taken, so this call to "transfer_to_shipping" was ignored.',
        },
        { type: 'function_call_output', callId: 'call_1', output: '{"assistant":"Billing"}' },
      ]);
    });
  });

  test('tools called next to a handoff run before control passes', async () => {
    await bothWays(async (h) => {
      const { lookup, calls } = orderLookup();
      const billingModel = h.model([MockModel.text('Refunding order A1.')]);
      const billing = new Agent({ name: 'Billing', model: billingModel });
      const triage = new Agent({
        name: 'Triage',
        tools: [lookup],
        handoffs: [billing],
        model: h.model([
          MockModel.turn(MockModel.toolCall('lookup_order', { orderId: 'A1' }), MockModel.handoff('Billing')),
        ]),
      });
      const result = await h.run(triage, 'refund A1');
      expect(calls).toEqual(['A1']);
      expect(result.state.currentTurn).toBe(2);
      expect(billingModel.requests[0]?.input.map((item) => item.type)).toEqual([
        'message',
        'function_call',
        'function_call',
        'function_call_output',
        'function_call_output',
      ]);
    });
  });

  test('onHandoff runs and inputFilter rewrites what the new agent sees', async () => {
    await bothWays(async (h) => {
      const log: string[] = [];
      const seen: HandoffInputData[] = [];
      const billingModel = h.model([MockModel.text('clean slate')]);
      const billing = new Agent({ name: 'Billing', model: billingModel });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [
          handoff(billing, {
            toolName: 'to_billing',
            onHandoff: () => {
              log.push('onHandoff');
            },
            inputFilter: (data) => {
              seen.push(data);
              return { inputHistory: data.inputHistory, preHandoffItems: [], newItems: [] };
            },
          }),
        ],
        model: h.model([
          MockModel.turn(MockModel.text('Transferring you.'), MockModel.toolCall('to_billing')),
        ]),
      });
      const result = await h.run(triage, [
        { type: 'message', role: 'user', content: 'first' },
        { type: 'message', role: 'user', content: 'refund please' },
      ]);
      expect(log).toEqual(['onHandoff']);
      expect(result.finalOutput).toBe('clean slate');
      expect(seen[0]?.preHandoffItems).toEqual([]);
      expect(seen[0]?.inputHistory).toHaveLength(2);
      expect(seen[0]?.newItems.map((item) => item.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
      ]);
      expect(billingModel.requests[0]?.input).toEqual([
        { type: 'message', role: 'user', content: 'first' },
        { type: 'message', role: 'user', content: 'refund please' },
      ]);
      // The filter changes what the model sees, not what happened: the result keeps every item.
      expect(result.newItems.map((item) => item.type)).toEqual([
        'message_output_item',
        'handoff_call_item',
        'handoff_output_item',
        'message_output_item',
      ]);
    });
  });
});
