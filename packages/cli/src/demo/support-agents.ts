import { Agent, tool } from '@parley/core';
import { z } from 'zod';

/** The demo's order database: one order, charged twice. */
export const ORDERS: Record<string, { orderId: string; item: string; amount: number; charges: number }> = {
  A1001: { orderId: 'A1001', item: 'Noise-cancelling headphones', amount: 42.5, charges: 2 },
};

/** Looks an order up (the support demo and `parley chat` on the mock model). */
export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look up an order and its charges by order id.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ORDERS[orderId] ?? { error: `No order ${orderId}` },
});

/** Refunds an amount on an order; needs approval. */
export const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund an amount on an order. A supervisor must approve every refund.',
  parameters: z.object({ orderId: z.string(), amount: z.number().positive() }),
  needsApproval: true,
  execute: ({ orderId, amount }) => ({ refundId: 'R-7781', orderId, amount, status: 'refunded' }),
});

/** Billing: looks orders up and issues refunds (which need approval). */
const billingAgent = new Agent({
  name: 'Billing',
  handoffDescription: 'Charges, refunds and invoices.',
  instructions:
    'You resolve billing problems. Look the order up before refunding, and refund only duplicate charges.',
  tools: [lookupOrder, issueRefund],
});

/** Triage: the first agent the customer talks to; hands billing questions to Billing. */
export const triageAgent = new Agent({
  name: 'Triage',
  instructions: 'Greet the customer and hand the conversation to the right specialist.',
  handoffs: [billingAgent],
});
