/**
 * A small customer-support graph used by the approval, RunState and fixture tests: Triage hands off to
 * Billing, whose `refund` tool needs approval above 100 (or always, with `alwaysApprove: false`).
 */
import { Agent, type InputGuardrail, type Model, tool } from '@parley/core';
import { z } from 'zod';

export interface SupportGraph {
  triage: Agent;
  billing: Agent;
  refunds: { orderId: string; amount: number }[];
  lookups: string[];
  guardrailRuns: unknown[];
}

export function supportGraph(
  models: { triage: Model; billing: Model },
  approval: 'always' | 'over_100' = 'always',
) {
  const refunds: { orderId: string; amount: number }[] = [];
  const lookups: string[] = [];
  const guardrailRuns: unknown[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: approval === 'always' ? true : (_ctx, { amount }) => amount > 100,
    execute: ({ orderId, amount }) => {
      refunds.push({ orderId, amount });
      return `Refunded ${amount} on ${orderId}`;
    },
  });
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      lookups.push(orderId);
      return { orderId, total: 250 };
    },
  });
  const checkInput: InputGuardrail = {
    name: 'polite',
    execute: ({ input }) => {
      guardrailRuns.push(input);
      return { tripwireTriggered: false, outputInfo: { polite: true } };
    },
  };
  const billing = new Agent({
    name: 'Billing',
    instructions: 'Handle refunds.',
    tools: [refund, lookupOrder],
    model: models.billing,
  });
  const triage = new Agent({
    name: 'Triage',
    instructions: 'Route the customer.',
    handoffs: [billing],
    inputGuardrails: [checkInput],
    model: models.triage,
  });
  const graph: SupportGraph = { triage, billing, refunds, lookups, guardrailRuns };
  return graph;
}
