import { Agent, handoff, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { silenceAudio, speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { liveSimulator } from './live-rig.js';

type SwitchEvent = Extract<RealtimeSessionEvent, { type: 'handoff' | 'agent_started' | 'agent_done' }>;

describe('a handoff whose listener closes the session stops there (GPT-Live, Responses delegation)', () => {
  test.each([
    ['handoff', (e: SwitchEvent) => e.type === 'handoff'],
    ['agent_done', (e: SwitchEvent) => e.type === 'agent_done' && e.reason === 'switch'],
    ['agent_started', (e: SwitchEvent) => e.type === 'agent_started' && e.agent.name === 'Billing'],
  ] as const)(
    'its %s listener: no session.update for the new agent, no tool output, no response.create',
    async (type, match) => {
      const sim = await liveSimulator({ msPerChar: 10 });
      const model = new OpenAILiveModel({
        apiKey: 'sk-live',
        url: sim.url,
        clock: new ManualClock(),
        delegation: 'responses',
        backend: { model: 'gpt-5.5', instructions: 'Use tools.' },
      });
      // GPT-Live's instructions are fixed at session.start: the agents share them, the tools change.
      const billing = new Agent({ name: 'Billing', instructions: 'Be brief.' });
      const voice = new Agent({ name: 'Voice', instructions: 'Be brief.', handoffs: [handoff(billing)] });
      const session = new RealtimeSession(voice, { model });
      let closing = false;
      const closed = new Promise<void>((resolve) =>
        session.on(type, (event) => {
          if (!match(event as SwitchEvent)) return;
          closing = true;
          resolve(session.close());
        }),
      );
      await session.connect();
      sim.script({
        type: 'delegate',
        calls: [{ name: 'transfer_to_billing', arguments: {} }],
        answer: () => 'Billing here.',
      });
      session.sendAudio(speechAudio('billing please', { durationMs: 600 }));
      while (!closing) {
        session.sendAudio(silenceAudio(100));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await closed;
      const types = sim.clientEvents
        .map((e) => (e.event as { type: string }).type)
        .filter((t) => !t.endsWith('.append'));
      expect(types).toEqual(['session.start', 'session.close']);
      expect(session.status).toBe('closed');
    },
  );

  test('without a listener that closes it, the same handoff sends session.update, the output and one response.create', async () => {
    const sim = await liveSimulator({ msPerChar: 10 });
    const model = new OpenAILiveModel({
      apiKey: 'sk-live',
      url: sim.url,
      clock: new ManualClock(),
      delegation: 'responses',
      backend: { model: 'gpt-5.5', instructions: 'Use tools.' },
    });
    const billing = new Agent({ name: 'Billing', instructions: 'Be brief.' });
    const voice = new Agent({ name: 'Voice', instructions: 'Be brief.', handoffs: [handoff(billing)] });
    const session = new RealtimeSession(voice, { model });
    const switched = new Promise<void>((resolve) => session.on('handoff', () => resolve()));
    await session.connect();
    sim.script({
      type: 'delegate',
      calls: [{ name: 'transfer_to_billing', arguments: {} }],
      answer: () => 'Billing here.',
    });
    session.sendAudio(speechAudio('billing please', { durationMs: 600 }));
    const wire = () =>
      sim.clientEvents.map((e) => (e.event as { type: string }).type).filter((t) => !t.endsWith('.append'));
    let handedOff = false;
    void switched.then(() => {
      handedOff = true;
    });
    while (!handedOff || !wire().includes('response.create')) {
      session.sendAudio(silenceAudio(100));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(wire()).toEqual(['session.start', 'session.update', 'response.item.create', 'response.create']);
    await session.close();
  });
});
