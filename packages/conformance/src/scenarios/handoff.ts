import { Agent, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** The model calls transfer_to_<name>: the provider gets the new agent's settings, which answers next. */
export const handoffScenario: ConformanceScenario = {
  name: 'handoff: the new agent’s instructions and tools reach the provider and it answers',
  requires: ['mutableInstructions', 'mutableTools', 'responseRequests'],
  async run(harness) {
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      parameters: z.object({ orderId: z.string() }),
      execute: ({ orderId }) => `refunded ${orderId}`,
    });
    const billing = new Agent({ name: 'Billing', instructions: 'You handle billing.', tools: [refund] });
    const triage = new Agent({ name: 'Triage', instructions: 'Route the caller.', handoffs: [billing] });
    await withSession(harness, triage, async (session, events) => {
      await session.connect();
      await harness.respondWith(
        { output: [{ type: 'function_call', name: 'transfer_to_billing' }] },
        { output: [{ type: 'message', text: 'Billing here, how can I help?' }] },
      );
      session.sendMessage('I have a billing question.');
      const handoff = await events.waitFor('handoff');
      expect(handoff).toMatchObject({ from: triage, to: billing, via: 'tool_call' });
      const [update] = commandsOf(await harness.waitForCommand('updateSession'), 'updateSession');
      expect(update?.config.instructions).toBe('You handle billing.');
      expect(update?.config.tools?.map((t) => t.name)).toEqual(['refund']);
      const config = await harness.sessionConfig();
      expect(config.instructions).toBe('You handle billing.');
      expect(config.tools?.map((t) => t.name)).toEqual(['refund']);
      await events.waitFor('response_done', () => true, 2);
      expect(session.currentAgent).toBe(billing);
      expect(events.of('response_started').map((e) => e.agent.name)).toEqual(['Triage', 'Billing']);
      expect(session.history.at(-1)).toMatchObject({
        agentName: 'Billing',
        text: 'Billing here, how can I help?',
      });
      expect(events.of('error')).toEqual([]);
    });
  },
};
