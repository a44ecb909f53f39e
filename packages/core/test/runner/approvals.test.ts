import { Agent, RunState, tool, UserError } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays, type Harness } from './both-ways.js';
import { supportGraph } from './support-agents.js';

function refundScenario(h: Harness, approval: 'always' | 'over_100' = 'always') {
  const triageModel = h.model([MockModel.handoff('Billing')]);
  const billingModel = h.model([
    MockModel.turn(
      MockModel.toolCall('lookup_order', { orderId: 'A1' }),
      MockModel.toolCall('refund', { orderId: 'A1', amount: 250 }),
    ),
    MockModel.text('All done.'),
  ]);
  return {
    ...supportGraph({ triage: triageModel, billing: billingModel }, approval),
    triageModel,
    billingModel,
  };
}

/** Saves and restores a state the way an app would between requests. */
function roundTrip(state: RunState<unknown>, agent: Agent): RunState<unknown> {
  return RunState.fromString(agent, state.toString());
}

describe('approvals', () => {
  test('approve: the run pauses with interruptions, survives serialization, and resumes the paused turn', async () => {
    await bothWays(async (h) => {
      const g = refundScenario(h);
      const first = await h.run(g.triage, 'Refund order A1 please');
      expect(first.finalOutput).toBeUndefined();
      expect(first.state.status).toBe('interrupted');
      expect(first.interruptions).toHaveLength(1);
      const [approval] = first.interruptions;
      expect(approval).toMatchObject({
        type: 'tool_approval_item',
        agent: g.billing,
        rawItem: { type: 'function_call', name: 'refund', arguments: '{"orderId":"A1","amount":250}' },
      });
      // The tool that needed no approval already ran; the refund did not.
      expect(g.lookups).toEqual(['A1']);
      expect(g.refunds).toEqual([]);
      expect(first.lastAgent).toBe(g.billing);
      expect(first.state.currentTurn).toBe(2);

      // Save, restore, decide, save again, restore: the decision must survive too.
      const restored = roundTrip(first.state, g.triage);
      expect(restored.getInterruptions().map((item) => item.rawItem)).toEqual([approval?.rawItem]);
      restored.approve(restored.getInterruptions()[0]!);
      const decided = roundTrip(restored, g.triage);

      const second = await h.run(g.triage, decided);
      expect(second.finalOutput).toBe('All done.');
      expect(second.interruptions).toEqual([]);
      expect(g.refunds).toEqual([{ orderId: 'A1', amount: 250 }]);
      expect(g.lookups).toEqual(['A1']);
      // Resuming continued the paused turn: only the new model call counted.
      expect(second.state.currentTurn).toBe(3);
      expect(g.billingModel.callCount).toBe(2);
      // Input guardrails ran once, for the initial input; not after the handoff, not on resume.
      expect(g.guardrailRuns).toEqual(['Refund order A1 please']);
      expect(second.inputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['polite']);
      expect(
        g.billingModel.requests[1]?.input.filter((item) => item.type === 'function_call_output'),
      ).toEqual([
        { type: 'function_call_output', callId: 'call_1', output: '{"assistant":"Billing"}' },
        { type: 'function_call_output', callId: 'call_2', output: '{"orderId":"A1","total":250}' },
        { type: 'function_call_output', callId: 'call_3', output: 'Refunded 250 on A1' },
      ]);
      expect(second.newItems.map((item) => item.type)).toEqual([
        'handoff_call_item',
        'handoff_output_item',
        'tool_call_item',
        'tool_call_item',
        'tool_call_output_item',
        'tool_approval_item',
        'tool_call_output_item',
        'message_output_item',
      ]);
      g.triageModel.assertComplete();
      g.billingModel.assertComplete();
    });
  });

  test('reject: the tool does not run and the model sees the rejection message', async () => {
    await bothWays(async (h) => {
      const g = refundScenario(h);
      const first = await h.run(g.triage, 'Refund A1');
      const restored = roundTrip(first.state, g.triage);
      restored.reject(first.interruptions[0]!, { message: 'Refunds over 200 need a manager.' });
      const second = await h.run(g.triage, roundTrip(restored, g.triage));
      expect(second.finalOutput).toBe('All done.');
      expect(g.refunds).toEqual([]);
      expect(g.billingModel.requests[1]?.input.at(-1)).toEqual({
        type: 'function_call_output',
        callId: 'call_3',
        output: 'Refunds over 200 need a manager.',
      });
    });
  });

  test('reject without a message tells the model the call was refused', async () => {
    await bothWays(async (h) => {
      const g = refundScenario(h);
      const first = await h.run(g.triage, 'Refund A1');
      first.state.reject(first.interruptions[0]!);
      await h.run(g.triage, first.state);
      expect(g.billingModel.requests[1]?.input.at(-1)).toMatchObject({
        output: 'The user rejected this call to "refund"; it did not run.',
      });
    });
  });

  test('needsApproval as a function decides per call', async () => {
    await bothWays(async (h) => {
      const triageModel = h.model([MockModel.handoff('Billing')]);
      const billingModel = h.model([
        MockModel.toolCall('refund', { orderId: 'B2', amount: 40 }),
        MockModel.text('ok'),
      ]);
      const g = supportGraph({ triage: triageModel, billing: billingModel }, 'over_100');
      const result = await h.run(g.triage, 'small refund');
      expect(result.interruptions).toEqual([]);
      expect(g.refunds).toEqual([{ orderId: 'B2', amount: 40 }]);
    });
  });

  test('a decision binds to the call id and its arguments', async () => {
    await bothWays(async (h) => {
      const g = refundScenario(h);
      const first = await h.run(g.triage, 'Refund A1');
      first.state.approve(first.interruptions[0]!);
      const json = first.state.toJSON();
      // Someone edits the arguments of the saved decision: it no longer applies.
      json.approvals = json.approvals.map((decision) => ({
        ...decision,
        arguments: '{"orderId":"A1","amount":9999}',
      }));
      const tampered = RunState.fromString(g.triage, JSON.stringify(json));
      const second = await h.run(g.triage, tampered);
      expect(second.state.status).toBe('interrupted');
      expect(second.interruptions.map((item) => item.rawItem.callId)).toEqual(['call_3']);
      expect(g.refunds).toEqual([]);
      // Resuming again did not call the model or count a turn.
      expect(g.billingModel.callCount).toBe(1);
      expect(second.state.currentTurn).toBe(2);
    });
  });

  test('approving an item that is not pending is a UserError', async () => {
    await bothWays(async (h) => {
      const g = refundScenario(h);
      const first = await h.run(g.triage, 'Refund A1');
      const bogus = {
        ...first.interruptions[0]!,
        rawItem: { ...first.interruptions[0]!.rawItem, callId: 'nope' },
      };
      expect(() => first.state.approve(bogus)).toThrow(UserError);
      expect(() => first.state.approve(bogus)).toThrow(/not waiting for approval/);
      first.state.approve(first.interruptions[0]!);
      const done = await h.run(g.triage, first.state);
      expect(done.state.status).toBe('completed');
      expect(() => done.state.approve(first.interruptions[0]!)).toThrow(
        expect.objectContaining({ code: 'approval_not_pending' }),
      );
      await expect(h.run(g.triage, done.state)).rejects.toMatchObject({ code: 'run_state_not_resumable' });
    });
  });

  test('a handoff in the same response as a call awaiting approval waits for the decision', async () => {
    await bothWays(async (h) => {
      const managerModel = h.model([MockModel.text('Manager here.')]);
      const manager = new Agent({ name: 'Manager', model: managerModel });
      const wipe = tool({
        name: 'wipe',
        description: 'dangerous',
        parameters: z.object({}),
        needsApproval: true,
        execute: () => 'wiped',
      });
      const agent = new Agent({
        name: 'Ops',
        tools: [wipe],
        handoffs: [manager],
        model: h.model([MockModel.turn(MockModel.toolCall('wipe'), MockModel.handoff('Manager'))]),
      });
      const first = await h.run(agent, 'wipe and escalate');
      expect(first.lastAgent).toBe(agent);
      expect(managerModel.callCount).toBe(0);
      const restored = roundTrip(first.state, agent);
      restored.approve(restored.getInterruptions()[0]!);
      const second = await h.run(agent, restored);
      expect(second.lastAgent.name).toBe('Manager');
      expect(second.finalOutput).toBe('Manager here.');
      expect(managerModel.requests[0]?.input.slice(-2)).toEqual([
        { type: 'function_call_output', callId: 'call_1', output: 'wiped' },
        { type: 'function_call_output', callId: 'call_2', output: '{"assistant":"Manager"}' },
      ]);
    });
  });

  test('the app context is passed again when resuming a restored state', async () => {
    await bothWays(async (h) => {
      const seen: unknown[] = [];
      const whoami = tool<{ user: string }>({
        name: 'whoami',
        description: 'who is asking',
        parameters: z.object({}),
        needsApproval: true,
        execute: (_input, { runContext }) => {
          seen.push(runContext.context);
          return 'ok';
        },
      });
      const agent = new Agent<{ user: string }>({
        name: 'A',
        tools: [whoami],
        model: h.model([MockModel.toolCall('whoami'), MockModel.text('done')]),
      });
      const first = await h.run(agent, 'x', { context: { user: 'ada' } });
      const restored = RunState.fromString(agent, first.state.toString());
      restored.approve(restored.getInterruptions()[0]!);
      await h.run(agent, restored, { context: { user: 'ada' } });
      expect(seen).toEqual([{ user: 'ada' }]);
    });
  });
});
