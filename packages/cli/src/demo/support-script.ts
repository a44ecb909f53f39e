import { MockModel } from '@parley/mock';

/** What the customer says. */
export const CUSTOMER_MESSAGE = 'Hi, I was charged twice for order A1001. Can I get my money back?';

/** What the mock model "decides", turn by turn, for the support conversation. */
export function supportModel(): MockModel {
  return new MockModel([
    MockModel.handoff('Billing'),
    MockModel.toolCall('lookup_order', { orderId: 'A1001' }),
    MockModel.turn(
      MockModel.text('I can see order A1001 was charged twice. I am refunding the duplicate charge now.'),
      MockModel.toolCall('issue_refund', { orderId: 'A1001', amount: 42.5 }),
    ),
    MockModel.text('Done: refund R-7781 of $42.50 is on its way; it shows on your statement in 3–5 days.'),
  ]);
}
