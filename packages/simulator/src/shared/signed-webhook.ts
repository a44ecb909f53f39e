import { Webhook } from 'standardwebhooks';

/** One webhook the simulated service sends to the app, signed the Standard Webhooks way. */
export interface SignedWebhook {
  /** The app's webhook endpoint (on loopback). */
  url: string;
  /** The signing secret (`whsec_…`). */
  secret: string;
  /** `webhook-id`: the idempotency key. */
  id: string;
  /** `webhook-timestamp` (Unix seconds). */
  timestampSeconds: number;
  /** The event the body carries: `{ object: 'event', id, type, created_at, data }`, `created_at` the timestamp. */
  event: { id: string; type: string; data: object };
  /** Deliveries of the same webhook (same id), as a retrying service makes. Default 1. */
  deliveries?: number;
}

/** Delivers `webhook` (`webhook-id`, `webhook-timestamp`, `webhook-signature`); returns each delivery's HTTP status. */
export async function deliverSignedWebhook(webhook: SignedWebhook): Promise<number[]> {
  const { id, timestampSeconds, event } = webhook;
  const body = JSON.stringify({
    object: 'event',
    id: event.id,
    type: event.type,
    created_at: timestampSeconds,
    data: event.data,
  });
  const signature = new Webhook(webhook.secret).sign(id, new Date(timestampSeconds * 1000), body);
  const statuses: number[] = [];
  for (let i = 0; i < (webhook.deliveries ?? 1); i++) {
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestampSeconds),
        'webhook-signature': signature,
      },
      body,
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}
