import { Agent, tool } from '@parley/core';
import type { GeminiContent } from '@parley/google';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geminiRig } from './rig.js';

let rig: Awaited<ReturnType<typeof geminiRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const texts = (history: readonly GeminiContent[]) =>
  history.map((c) => [
    c.role,
    c.parts.map((p) => p.text ?? (p.functionCall ? `call ${p.functionCall.name}` : '…')).join(''),
  ]);

function agents() {
  const billing = new Agent({
    name: 'Billing',
    instructions: 'You handle invoices.',
    tools: [
      tool({
        name: 'get_invoice',
        description: 'The open invoice',
        parameters: z.object({}),
        execute: () => ({ amount: 42, currency: 'EUR' }),
      }),
    ],
  });
  const triage = new Agent({ name: 'Triage', instructions: 'Route the caller.', handoffs: [billing] });
  return { triage, billing };
}

describe('Gemini Live: a handoff changes instructions and tools by resuming the session with a new setup', () => {
  it('the new agent’s setup travels with the latest handle; the service keeps the context, nothing is replayed', async () => {
    rig = await geminiRig();
    const { triage, billing } = agents();
    rig.simulator.respondWith(
      { outputs: [{ type: 'call', name: 'transfer_to_billing', args: {} }] },
      { outputs: [{ type: 'speech', text: 'Billing here.' }] },
      { outputs: [{ type: 'call', name: 'get_invoice', args: {} }] },
      { outputs: [{ type: 'speech', text: 'You owe 42 euros.' }] },
    );
    const { session, events } = rig.session(triage);
    await session.connect();
    const first = rig.simulator.latest;
    const next = rig.simulator.nextSession();
    session.sendMessage('I have a billing question.');
    const handoff = await events.waitFor('handoff');
    expect(handoff).toMatchObject({ from: triage, to: billing, via: 'tool_call' });
    const second = await next;

    // The new connection resumed the first one's session with its latest handle, under the new agent's setup.
    const handles = (first?.sent ?? []).flatMap((m) =>
      m.sessionResumptionUpdate?.newHandle ? [m.sessionResumptionUpdate.newHandle] : [],
    );
    expect(second.resumed).toBe(true);
    expect(second.setup?.sessionResumption?.handle).toBe(handles.at(-1));
    expect(JSON.stringify(second.setup?.systemInstruction)).toContain('You handle invoices.');
    expect(JSON.stringify(second.setup?.systemInstruction)).not.toContain('Route the caller.');
    const declared = (second.setup?.tools ?? [])
      .flatMap((t) => t.functionDeclarations ?? [])
      .map((f) => f.name);
    expect(declared).toEqual(['get_invoice']);
    await first?.closed;

    // The new agent's tool runs on the resumed session, and the model answers with what it returned.
    session.sendMessage('What do I owe?');
    const done = await events.waitFor('tool_done', (e) => e.name === 'get_invoice');
    expect(JSON.parse(done.output)).toEqual({ amount: 42, currency: 'EUR' });
    await events.waitFor('response_done', (e) => e.status === 'completed', 4);
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'You owe 42 euros.' });

    // Nothing was replayed: the only content the new connection got is the new message; the service held the rest.
    const content = second.received.flatMap((m) =>
      'clientContent' in m ? (m.clientContent.turns ?? []) : [],
    );
    expect(texts(content)).toEqual([['user', 'What do I owe?']]);
    expect(texts(second.history).slice(0, 2)).toEqual([
      ['user', 'I have a billing question.'],
      ['model', 'call transfer_to_billing'],
    ]);
    expect(events.of('reconnected')).toEqual([]);
    expect(rig.simulator.sessions).toHaveLength(2);
  });

  it('a handle the service no longer honours: the session reconnects under the new agent and replays its history', async () => {
    rig = await geminiRig();
    const { triage, billing } = agents();
    rig.simulator.respondWith(
      { outputs: [{ type: 'call', name: 'transfer_to_billing', args: {} }] },
      { outputs: [{ type: 'speech', text: 'Billing here.' }] },
    );
    const { session, events } = rig.session(triage);
    await session.connect();
    // The answer after the handoff ends; by then the service has issued the handle the adapter resumes with, and
    // forgets them all (as after a service restart).
    let handedOff = false;
    session.on('handoff', () => {
      handedOff = true;
    });
    session.on('response_done', () => {
      if (handedOff) rig?.simulator.expireHandles();
    });
    session.sendMessage('I have a billing question.');
    await events.waitFor('handoff');
    const reconnected = await events.waitFor('reconnected');
    expect(reconnected).toMatchObject({ reason: 'connection_lost', replayedItems: 4 });
    expect(reconnected.resumed).not.toBe(true);
    const fresh = rig.simulator.latest;
    expect(fresh?.resumed).toBe(false);
    // The new conversation runs under the new agent, and holds what the old one did (replayed).
    expect(JSON.stringify(fresh?.setup?.systemInstruction)).toContain('You handle invoices.');
    expect(
      (fresh?.setup?.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name),
    ).toEqual(['get_invoice']);
    await rig.simulator.waitForMessage(
      (m, connection) =>
        connection === fresh?.index && 'clientContent' in m && JSON.stringify(m).includes('Billing here.'),
    );
    expect(texts(fresh?.history ?? []).slice(0, 1)).toEqual([['user', 'I have a billing question.']]);
    expect(session.currentAgent).toBe(billing);
  });

  it('without session resumption the handoff cannot change instructions: a typed error, no new connection', async () => {
    rig = await geminiRig({ model: { sessionResumption: false } });
    const { triage } = agents();
    rig.simulator.respondWith({ outputs: [{ type: 'call', name: 'transfer_to_billing', args: {} }] });
    const { session, events } = rig.session(triage);
    await session.connect();
    session.sendMessage('I have a billing question.');
    const error = await events.waitFor('error');
    expect(error).toMatchObject({ code: 'capability_not_supported' });
    expect(events.of('handoff')).toEqual([]);
    expect(rig.simulator.sessions).toHaveLength(1);
  });
});
