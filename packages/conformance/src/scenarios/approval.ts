import { Agent, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** A tool needing approval waits for the app; approve runs it, reject sends the message as the output. */
export const approvalScenario: ConformanceScenario = {
  name: 'approval: nothing runs until approved; a rejection becomes the output',
  requires: ['responseRequests'],
  async run(harness) {
    const paid: number[] = [];
    const pay = tool({
      name: 'pay',
      description: 'Pays an amount',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => {
        paid.push(amount);
        return `paid ${amount}`;
      },
    });
    await withSession(harness, new Agent({ name: 'Cashier', tools: [pay] }), async (session, events) => {
      await session.connect();
      await harness.respondWith(
        { output: [{ type: 'function_call', name: 'pay', arguments: { amount: 40 }, callId: 'pay_1' }] },
        { output: [{ type: 'message', text: 'Paid.' }] },
        { output: [{ type: 'function_call', name: 'pay', arguments: { amount: 900 }, callId: 'pay_2' }] },
        { output: [{ type: 'message', text: 'Not paid.' }] },
      );
      session.sendMessage('Pay 40.');
      const first = await events.waitFor('tool_approval_requested');
      expect(first).toMatchObject({ name: 'pay', arguments: '{"amount":40}' });
      expect(commandsOf(await harness.commands(), 'sendToolOutput')).toEqual([]);
      expect(paid).toEqual([]);
      session.approve(first.callId);
      await harness.waitForCommand('sendToolOutput');
      expect(paid).toEqual([40]);
      await events.waitFor('response_done', () => true, 2);

      session.sendMessage('Pay 900.');
      const second = await events.waitFor('tool_approval_requested', () => true, 2);
      session.reject(second.callId, { message: 'The user declined.' });
      const outputs = commandsOf(
        await harness.waitForCommand('sendToolOutput', { count: 2 }),
        'sendToolOutput',
      );
      expect(outputs.map((o) => [o.callId, o.output])).toEqual([
        [first.callId, 'paid 40'],
        [second.callId, 'The user declined.'],
      ]);
      expect(paid).toEqual([40]);
      await events.waitFor('response_done', () => true, 4);
      expect(session.history.at(-1)).toMatchObject({ text: 'Not paid.' });
    });
  },
};
