import { main, runSupportDemo } from '@parley/cli';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

describe('parley demo --text', () => {
  test('runs the support conversation: handoff, tool call, approval after a saved state, final answer', async () => {
    const out = capture();
    const summary = await runSupportDemo(out);
    expect(summary).toEqual({
      finalOutput: expect.stringContaining('refund R-7781'),
      lastAgent: 'Billing',
      handoffs: 1,
      toolCalls: 2,
      approvals: 1,
      turns: 4,
    });
    const text = out.lines.join('\n');
    const order = [
      'customer   Hi, I was charged twice',
      'Triage     ⇢ hands the conversation to Billing',
      'Billing    ⚙ lookup_order({"orderId":"A1001"})',
      '↳ lookup_order returned {"orderId":"A1001"',
      'Billing    ⏸ issue_refund({"orderId":"A1001","amount":42.5}) needs approval',
      'supervisor ✔ approves issue_refund',
      'Billing    ⚙ issue_refund',
      '↳ issue_refund returned {"refundId":"R-7781"',
      'Billing    Done: refund R-7781',
    ].map((fragment) => text.indexOf(fragment));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('main runs it as `demo --text`', async () => {
    const out = capture();
    expect(await main(['demo', '--text'], { out })).toBe(0);
    expect(out.lines.at(-1)).toMatch(/ended with Billing/);
  });
});
