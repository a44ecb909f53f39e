import { deferred, EventRecorder } from '@parley/conformance';
import {
  Agent,
  CapabilityNotSupportedError,
  handoff,
  RealtimeSession,
  type RealtimeSessionEvent,
  tool,
} from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const refund = tool({
  name: 'refund',
  description: 'Refunds an order',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => `refunded ${orderId}`,
});

function agents(onHandoff?: () => void) {
  const billing = new Agent({ name: 'Billing', instructions: 'You handle billing.', tools: [refund] });
  const triage = new Agent({
    name: 'Triage',
    instructions: 'Route the caller.',
    handoffs: [onHandoff ? handoff(billing, { onHandoff }) : billing],
  });
  return { billing, triage };
}

const switchEvents = (log: EventRecorder) =>
  log.events
    .filter((e): e is Extract<RealtimeSessionEvent, { type: 'agent_started' | 'agent_done' | 'handoff' }> =>
      ['agent_started', 'agent_done', 'handoff'].includes(e.type),
    )
    .slice(1)
    .map((e) =>
      e.type === 'handoff' ? `handoff ${e.from.name}->${e.to.name}` : `${e.type} ${e.agent.name}`,
    );

describe('handoff and updateAgent: one code path', () => {
  test('a handoff sends the new agent settings, emits the switch events, and the new agent answers', async () => {
    const { billing, triage } = agents();
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const session = new RealtimeSession(triage, { model });
    const log = new EventRecorder(session);
    model.respondWith(
      { output: [{ type: 'function_call', name: 'transfer_to_billing', callId: 'h1' }] },
      { output: [{ type: 'function_call', name: 'refund', arguments: { orderId: 'A7' }, callId: 'c1' }] },
      'Your refund is on its way.',
    );
    await session.connect();
    session.sendMessage('I want a refund');
    await flushMicrotasks();
    expect(session.currentAgent).toBe(billing);
    const update = model.commands.find((c) => c.type === 'updateSession');
    expect(update).toEqual({
      type: 'updateSession',
      config: {
        instructions: 'You handle billing.',
        tools: [{ name: 'refund', description: 'Refunds an order', parameters: refund.jsonSchema }],
        toolChoice: 'auto',
      },
    });
    expect(switchEvents(log)).toEqual([
      'agent_done Triage',
      'agent_started Billing',
      'handoff Triage->Billing',
    ]);
    expect(log.of('handoff')[0]).toMatchObject({ via: 'tool_call', callId: 'h1' });
    // The update goes out before the transfer's output, so the follow-up response is already Billing's.
    expect(model.commands.map((c) => c.type)).toEqual([
      'createItem',
      'createResponse',
      'updateSession',
      'sendToolOutput',
      'createResponse',
      'sendToolOutput',
      'createResponse',
    ]);
    expect(log.of('response_started').map((e) => e.agent.name)).toEqual(['Triage', 'Billing', 'Billing']);
    expect(log.of('tool_done')[0]).toMatchObject({ name: 'refund', output: 'refunded A7' });
    expect(model.connection.config.tools?.map((t) => t.name)).toEqual(['refund']);
    expect(session.history.at(-1)).toMatchObject({
      agentName: 'Billing',
      text: 'Your refund is on its way.',
    });
    await session.close();
  });

  test('updateAgent() sends the same command and emits the same events as the handoff', async () => {
    const { billing, triage } = agents();
    const viaTool = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const a = new RealtimeSession(triage, { model: viaTool });
    const logA = new EventRecorder(a);
    viaTool.respondWith(
      { output: [{ type: 'function_call', name: 'transfer_to_billing', callId: 'h1' }] },
      'ok',
    );
    await a.connect();
    a.sendMessage('billing please');
    await flushMicrotasks();

    const viaApi = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const b = new RealtimeSession(triage, { model: viaApi });
    const logB = new EventRecorder(b);
    await b.connect();
    await b.updateAgent(billing);
    await flushMicrotasks();

    const updateOf = (m: MockRealtimeModel) => m.commands.find((c) => c.type === 'updateSession');
    expect(updateOf(viaApi)).toEqual(updateOf(viaTool));
    expect(switchEvents(logB)).toEqual(switchEvents(logA));
    expect(logB.of('handoff')[0]).toMatchObject({ via: 'update_agent', from: triage, to: billing });
    expect(viaApi.connection.config).toEqual(viaTool.connection.config);
    await Promise.all([a.close(), b.close()]);
  });

  test('the handoff calls onHandoff with the session context before switching', async () => {
    const calls: string[] = [];
    const { triage } = agents(() => calls.push('onHandoff'));
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const session = new RealtimeSession(triage, { model });
    session.on('agent_started', (e) => calls.push(`start ${e.agent.name}`));
    model.respondWith({ output: [{ type: 'function_call', name: 'transfer_to_billing' }] }, 'ok');
    await session.connect();
    session.sendMessage('billing');
    await flushMicrotasks();
    expect(calls).toEqual(['start Triage', 'onHandoff', 'start Billing']);
    await session.close();
  });

  test('updateAgent() before connect only replaces the agent; connect uses it', async () => {
    const { billing, triage } = agents();
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(triage, { model });
    await session.updateAgent(billing);
    await session.connect();
    expect(model.connection.config.instructions).toBe('You handle billing.');
    expect(model.commands).toEqual([]);
    await session.close();
  });

  test('concurrent switches apply one at a time, in call order', async () => {
    const { billing, triage } = agents();
    const support = new Agent({ name: 'Support', instructions: 'You help.' });
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(triage, { model });
    await session.connect();
    await Promise.all([session.updateAgent(billing), session.updateAgent(support)]);
    expect(session.currentAgent).toBe(support);
    expect(model.commands.map((c) => (c.type === 'updateSession' ? c.config.instructions : c.type))).toEqual([
      'You handle billing.',
      'You help.',
    ]);
    await session.close();
  });
});

describe('a switch that fails halfway keeps a consistent agent and reports the error', () => {
  test('updateAgent(): instructions that throw → rejects, error event, nothing sent, old agent stays', async () => {
    const { triage } = agents();
    const broken = new Agent({
      name: 'Broken',
      instructions: () => {
        throw new Error('instructions unavailable');
      },
    });
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(triage, { model });
    const log = new EventRecorder(session);
    await session.connect();
    await expect(session.updateAgent(broken)).rejects.toThrow('instructions unavailable');
    await flushMicrotasks();
    expect(session.currentAgent).toBe(triage);
    expect(model.commands).toEqual([]);
    expect(log.of('error')[0]).toMatchObject({ source: 'session', code: 'agent_switch_failed' });
    expect(log.of('handoff')).toEqual([]);
    await session.close();
  });

  test('a handoff whose onHandoff throws: the old agent stays, the model is told (not the error text), the session goes on', async () => {
    const { triage } = agents(() => {
      throw new Error('CRM is down');
    });
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const session = new RealtimeSession(triage, { model });
    const log = new EventRecorder(session);
    model.respondWith(
      { output: [{ type: 'function_call', name: 'transfer_to_billing', callId: 'h1' }] },
      'Sorry, try later.',
    );
    await session.connect();
    session.sendMessage('billing');
    await flushMicrotasks();
    expect(session.currentAgent).toBe(triage);
    expect(model.commands.some((c) => c.type === 'updateSession')).toBe(false);
    expect(model.commands.find((c) => c.type === 'sendToolOutput')).toEqual({
      type: 'sendToolOutput',
      callId: 'h1',
      output: 'Error: the transfer to "Billing" failed.',
    });
    expect(log.of('error')[0]).toMatchObject({ code: 'agent_switch_failed', message: 'CRM is down' });
    expect(session.history.at(-1)).toMatchObject({ agentName: 'Triage', text: 'Sorry, try later.' });
    await session.close();
  });

  test('an updateSession the connection refuses: the old agent is active again (announced), the model is told', async () => {
    const { triage } = agents();
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    const session = new RealtimeSession(triage, { model });
    const log = new EventRecorder(session);
    model.respondWith(
      { output: [{ type: 'function_call', name: 'transfer_to_billing', callId: 'h1' }] },
      'Sorry, try later.',
    );
    await session.connect();
    model.connection.failNextSend('updateSession', { error: new Error('cannot express it') });
    session.sendMessage('billing');
    await flushMicrotasks();
    expect(session.currentAgent).toBe(triage);
    expect(switchEvents(log)).toEqual([
      'agent_done Triage',
      'agent_started Billing',
      'handoff Triage->Billing',
      'agent_done Billing',
      'agent_started Triage',
    ]);
    expect(model.commands.find((c) => c.type === 'sendToolOutput')).toEqual({
      type: 'sendToolOutput',
      callId: 'h1',
      // The thrown text stays with the app (the error event); the model gets the generic failure.
      output: 'Error: the transfer to "Billing" failed.',
    });
    expect(log.of('error')[0]).toMatchObject({ code: 'agent_switch_failed', message: 'cannot express it' });
    expect(session.history.at(-1)).toMatchObject({ agentName: 'Triage', text: 'Sorry, try later.' });
    await session.close();
  });

  test('a provider without mutableTools: switching to other tools is a CapabilityNotSupportedError', async () => {
    const { billing, triage } = agents();
    const model = new MockRealtimeModel({ capabilities: { mutableTools: false } });
    const session = new RealtimeSession(triage, { model });
    const log = new EventRecorder(session);
    await session.connect();
    const error = await session.updateAgent(billing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityNotSupportedError);
    expect(error).toMatchObject({
      code: 'capability_not_supported',
      capability: 'mutableTools',
      provider: 'mock',
    });
    await flushMicrotasks();
    expect(log.of('error')[0]).toMatchObject({ code: 'capability_not_supported' });
    expect(session.currentAgent).toBe(triage);
    expect(model.commands).toEqual([]);
    // Same tools, other instructions: only the instructions are updated.
    const sibling = triage.clone({ name: 'Sibling', instructions: 'Route politely.' });
    await session.updateAgent(sibling);
    expect(model.commands).toEqual([{ type: 'updateSession', config: { instructions: 'Route politely.' } }]);
    await session.close();
  });

  test('the connection drops while the new agent is being prepared: the switch fails, the agent is unchanged', async () => {
    const { triage } = agents();
    const gate = deferred<string>();
    const slow = new Agent({ name: 'Slow', instructions: () => gate.promise });
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(triage, { model });
    await session.connect();
    const switching = session.updateAgent(slow).catch((e: unknown) => e);
    await flushMicrotasks();
    model.connection.disconnect();
    await flushMicrotasks();
    gate.resolve('late instructions');
    expect(await switching).toMatchObject({ code: 'connection_lost' });
    expect(session.currentAgent).toBe(triage);
    expect(model.commands).toEqual([]);
    await session.close();
  });
});
