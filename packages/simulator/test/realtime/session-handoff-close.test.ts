import { Agent, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { modelFor, sent, simulator } from './helpers.js';

type SwitchEvent = Extract<RealtimeSessionEvent, { type: 'handoff' | 'agent_started' | 'agent_done' }>;

describe('a handoff whose listener closes the session stops there (OpenAI Realtime)', () => {
  test.each([
    ['handoff', (e: SwitchEvent) => e.type === 'handoff'],
    ['agent_done', (e: SwitchEvent) => e.type === 'agent_done' && e.reason === 'switch'],
    ['agent_started', (e: SwitchEvent) => e.type === 'agent_started' && e.agent.name === 'Billing'],
  ] as const)(
    'its %s listener: no session.update for the new agent, no tool output, no follow-up',
    async (type, match) => {
      const sim = await simulator();
      const billing = new Agent({ name: 'Billing', instructions: 'You handle billing.' });
      const triage = new Agent({ name: 'Triage', instructions: 'Route the caller.', handoffs: [billing] });
      const session = new RealtimeSession(triage, {
        model: modelFor(sim),
        config: { outputModalities: ['text'] },
      });
      const closed = new Promise<void>((resolve) =>
        session.on(type, (event) => {
          if (match(event as SwitchEvent)) resolve(session.close());
        }),
      );
      await session.connect();
      const server = await sim.waitForConnection();
      sim.script(
        { type: 'function_call', name: 'transfer_to_billing', arguments: {}, callId: 'call_transfer' },
        'Billing here.',
      );
      session.sendMessage('A billing question, please.');
      await closed;
      await server.closed;
      const updates = sent(server, 'session.update');
      expect(updates).toHaveLength(1);
      expect(JSON.stringify(updates)).not.toContain('You handle billing.');
      expect(
        sent(server, 'conversation.item.create').filter(
          (e) => (e.item as { type: string }).type === 'function_call_output',
        ),
      ).toEqual([]);
      expect(sent(server, 'response.create')).toHaveLength(1);
      expect(session.status).toBe('closed');
    },
  );
});
