/** Where a simulated service announces a caller dialing in, and what the caller's INVITE carried. */
export interface IncomingSipCallWebhook {
  /** The app's webhook endpoint (on loopback). */
  webhookUrl: string;
  /** The webhook signing secret (`whsec_…`) the simulator signs with. */
  secret: string;
  /** The INVITE's headers, forwarded as `data.sip_headers`. Default a `From`, `To` and `Call-ID`. */
  sipHeaders?: readonly { name: string; value: string }[];
  /** Deliver the same webhook (same `webhook-id`) this many times, as a retrying service may. Default 1. */
  deliveries?: number;
  /** The webhook's `webhook-timestamp` (Unix seconds). Default now. */
  timestampSeconds?: number;
}

/** The INVITE's headers: the app's, or a caller's `From`, the service's `To` and a `Call-ID` made from `callId`. */
export function inviteHeaders(
  given: IncomingSipCallWebhook['sipHeaders'],
  callId: string,
): readonly { name: string; value: string }[] {
  return (
    given ?? [
      { name: 'From', value: '"Caller" <sip:+14155550100@sip.example.com>' },
      { name: 'To', value: '<sip:+14155550199@sip.api.openai.com>' },
      { name: 'Call-ID', value: `${callId}@sip.example.com` },
    ]
  );
}
