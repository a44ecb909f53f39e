import { readFileSync } from 'node:fs';
import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';

const guide = readFileSync(new URL('../../../../docs/getting-started.md', import.meta.url), 'utf8');

test('the agents-as-tools example in docs/getting-started.md works', async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, RunState, run, tool } = await import('@parley/core');
  const { MockModel } = await import('@parley/mock');
  const { z } = await import('zod');

  // #region agents-as-tools
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: ({ orderId }) => `Refunded ${orderId}`,
  });
  const billing = new Agent({
    name: 'Billing',
    instructions: 'You handle refunds.',
    tools: [refund],
    model: new MockModel([
      MockModel.toolCall('refund', { orderId: 'A1' }),
      MockModel.text('A1 is refunded.'),
    ]),
  });
  const manager = new Agent({
    name: 'Manager',
    instructions: 'Ask Billing about refunds; you stay in charge of the conversation.',
    tools: [billing.asTool({ name: 'billing', description: 'Refunds and invoices.' })],
    model: new MockModel([
      MockModel.toolCall('billing', { input: 'Refund order A1' }),
      MockModel.text('Done: order A1 is refunded.'),
    ]),
  });

  const first = await run(manager, 'Please refund order A1');
  // Billing's refund waits for approval, and so does the manager's run.
  const [approval] = first.interruptions;
  console.log(`${approval?.agent.name} wants to call ${approval?.rawItem.name}`);

  // The state saves and restores like any other, Billing's paused run included.
  const state = RunState.fromString(manager, first.state.toString());
  state.approve(state.getInterruptions()[0]!);
  const second = await run(manager, state);
  console.log(second.finalOutput);
  // #endregion agents-as-tools

  expect(printed).toEqual(['Billing wants to call refund', 'Done: order A1 is refunded.']);
  expect(guide).toContain(await codeRegion(import.meta.url, 'agents-as-tools'));
});
