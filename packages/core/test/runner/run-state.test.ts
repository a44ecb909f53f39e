import { readFileSync } from 'node:fs';
import { Agent, handoff, RUN_STATE_SCHEMA_VERSION, RunState, run, UserError } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';
import { supportGraph } from './support-agents.js';

const FIXTURE_V1_0 = readFileSync(new URL('../fixtures/run-state-v1.0.json', import.meta.url), 'utf8');

function graph() {
  return supportGraph({ triage: new MockModel(), billing: new MockModel() });
}

describe('RunState fixture (schema 1.0)', () => {
  test('the current version is 1.0 and the fixture is read back exactly', () => {
    expect(RUN_STATE_SCHEMA_VERSION).toBe('1.0');
    const g = graph();
    const state = RunState.fromString(g.triage, FIXTURE_V1_0);
    expect(state.toJSON()).toEqual(JSON.parse(FIXTURE_V1_0));
  });

  test('every field survives: budget, turn, agents, items, guardrail results, approvals and decisions', () => {
    const g = graph();
    const state = RunState.fromString(g.triage, FIXTURE_V1_0);
    expect(state.status).toBe('interrupted');
    expect(state.maxTurns).toBe(8);
    expect(state.currentTurn).toBe(2);
    expect(state.startingAgent).toBe(g.triage);
    expect(state.currentAgent).toBe(g.billing);
    expect(state.usage).toEqual({ requests: 2, inputTokens: 28, outputTokens: 37, totalTokens: 65 });
    expect(state.generatedItems.map((item) => [item.type, item.agent.name])).toEqual([
      ['handoff_call_item', 'Triage'],
      ['handoff_output_item', 'Triage'],
      ['message_output_item', 'Billing'],
      ['tool_call_item', 'Billing'],
      ['tool_call_item', 'Billing'],
      ['tool_call_item', 'Billing'],
      ['tool_call_output_item', 'Billing'],
      ['tool_approval_item', 'Billing'],
      ['tool_approval_item', 'Billing'],
    ]);
    const handoffOutput = state.generatedItems[1];
    expect(handoffOutput?.type === 'handoff_output_item' && handoffOutput.targetAgent).toBe(g.billing);
    expect(state.inputGuardrailResults).toEqual([
      { guardrail: { name: 'polite' }, output: { tripwireTriggered: false, outputInfo: { polite: true } } },
    ]);
    expect(state.getInterruptions().map((item) => item.rawItem.arguments)).toEqual([
      '{"orderId":"A1","amount":250}',
      '{"orderId":"B2","amount":300}',
    ]);
  });

  test('a restored fixture resumes: the saved approval applies, a new rejection too, nothing reruns', async () => {
    await bothWays(async (h) => {
      const billingModel = h.model([MockModel.text('A1 refunded; B2 needs a manager.')]);
      const g = supportGraph({ triage: h.model(), billing: billingModel });
      const state = RunState.fromString(g.triage, FIXTURE_V1_0);
      const b2 = state.getInterruptions().find((item) => item.rawItem.callId === 'call_4')!;
      state.reject(b2, { message: 'Needs a manager.' });
      const result = await h.run(g.triage, state);
      expect(result.finalOutput).toBe('A1 refunded; B2 needs a manager.');
      expect(g.refunds).toEqual([{ orderId: 'A1', amount: 250 }]);
      expect(g.lookups).toEqual([]);
      expect(g.guardrailRuns).toEqual([]);
      expect(result.state.currentTurn).toBe(3);
      expect(result.state.maxTurns).toBe(8);
      expect(billingModel.requests[0]?.input.slice(-3)).toEqual([
        { type: 'function_call_output', callId: 'call_2', output: '{"orderId":"A1","total":250}' },
        { type: 'function_call_output', callId: 'call_3', output: 'Refunded 250 on A1' },
        { type: 'function_call_output', callId: 'call_4', output: 'Needs a manager.' },
      ]);
      expect(result.history[0]).toEqual({
        type: 'message',
        role: 'user',
        content: 'Please refund orders A1 and B2.',
      });
    });
  });
});

describe('RunState round-trip', () => {
  test('a finished state keeps its final output and output guardrail results; Infinity stays unlimited', async () => {
    const agent = new Agent({
      name: 'A',
      model: new MockModel([MockModel.text('bye')]),
      outputGuardrails: [{ name: 'ok', execute: () => ({ tripwireTriggered: false, outputInfo: 1 }) }],
    });
    const result = await run(agent, 'hi', { maxTurns: Number.POSITIVE_INFINITY });
    const restored = RunState.fromString(agent, result.state.toString());
    expect(restored.status).toBe('completed');
    expect(restored.maxTurns).toBe(Number.POSITIVE_INFINITY);
    expect(restored.outputGuardrailResults).toEqual(result.outputGuardrailResults);
    expect(restored.toJSON()).toEqual(result.state.toJSON());
    expect(restored.toJSON()).toMatchObject({ hasFinalOutput: true, finalOutput: 'bye' });
  });
});

describe('RunState.fromString errors', () => {
  const agent = graph().triage;
  const fixture = JSON.parse(FIXTURE_V1_0) as Record<string, unknown>;
  const withVersion = (version: unknown) => JSON.stringify({ ...fixture, $schemaVersion: version });

  test('a missing version', () => {
    const { $schemaVersion: _dropped, ...rest } = fixture;
    const attempt = () => RunState.fromString(agent, JSON.stringify(rest));
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'run_state_version_missing' }));
  });

  test.each(['2.0', '1.1', '10.0'])('a future version %s says to upgrade', (version) => {
    const attempt = () => RunState.fromString(agent, withVersion(version));
    expect(attempt).toThrow(expect.objectContaining({ code: 'run_state_version_unsupported' }));
    expect(attempt).toThrow(/newer @parley\/core.*Upgrade/);
  });

  test.each([['banana'], ['0.9'], [1], [null]])('an unknown version %j', (version) => {
    const attempt = () => RunState.fromString(agent, withVersion(version));
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'run_state_version_unsupported' }));
    expect(attempt).toThrow(/unknown \$schemaVersion/);
  });

  test('not JSON, not an object, or malformed', () => {
    expect(() => RunState.fromString(agent, '{oops')).toThrow(
      expect.objectContaining({ code: 'run_state_invalid' }),
    );
    expect(() => RunState.fromString(agent, '[]')).toThrow(
      expect.objectContaining({ code: 'run_state_invalid' }),
    );
    expect(() => RunState.fromString(agent, JSON.stringify({ ...fixture, currentTurn: -1 }))).toThrow(
      /malformed \(currentTurn: /,
    );
  });

  test('a different starting agent, or an agent the graph does not reach', () => {
    expect(() => RunState.fromString(new Agent({ name: 'Other' }), FIXTURE_V1_0)).toThrow(
      expect.objectContaining({ code: 'run_state_agent_mismatch' }),
    );
    const lonelyTriage = new Agent({ name: 'Triage' });
    expect(() => RunState.fromString(lonelyTriage, FIXTURE_V1_0)).toThrow(
      expect.objectContaining({
        code: 'run_state_agent_not_found',
        message: expect.stringContaining('"Billing"'),
      }),
    );
  });

  test('two different agents with the name the state refers to is a UserError', () => {
    const g = graph();
    const lookalike = new Agent({ name: 'Billing' });
    const triage = g.triage.clone({
      handoffs: [g.billing, handoff(lookalike, { toolName: 'to_lookalike' })],
    });
    expect(() => RunState.fromString(triage, FIXTURE_V1_0)).toThrow(
      expect.objectContaining({ code: 'run_state_agent_ambiguous' }),
    );
  });

  test('resuming with a different agent than the run started with is a UserError', async () => {
    const g = graph();
    const state = RunState.fromString(g.triage, FIXTURE_V1_0);
    await expect(run(g.billing, state)).rejects.toMatchObject({ code: 'run_state_agent_mismatch' });
  });
});
