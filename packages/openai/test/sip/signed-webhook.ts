import { Webhook } from 'standardwebhooks';

export const SECRET = `whsec_${Buffer.from('parley-test-signing-secret-0123456789').toString('base64')}`;
export const NOW_MS = 1_790_000_000_000;

/** A webhook request signed with the verifier library's own signing. */
export function signedWebhook(
  event: unknown,
  options: { id?: string; secret?: string; timestampMs?: number; rawBody?: string } = {},
): { headers: Record<string, string>; body: string } {
  const body = options.rawBody ?? JSON.stringify(event);
  const id = options.id ?? `wh_${Math.random().toString(36).slice(2)}`;
  const at = new Date(options.timestampMs ?? NOW_MS);
  const signature = new Webhook(options.secret ?? SECRET).sign(id, at, body);
  return {
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
      'content-type': 'application/json',
    },
    body,
  };
}

export function realtimeIncoming(callId: string, sipCallId?: string) {
  return {
    object: 'event',
    id: `evt_${callId}`,
    type: 'realtime.call.incoming',
    created_at: NOW_MS / 1000,
    data: {
      call_id: callId,
      sip_headers: [
        { name: 'From', value: '"Ada" <sip:+15551230000@sip.example.com>' },
        { name: 'To', value: 'sip:+15559870000@sip.api.openai.com' },
        ...(sipCallId ? [{ name: 'Call-ID', value: sipCallId }] : []),
      ],
    },
  };
}

export function liveIncoming(
  sessionId: string,
  sipCallId?: string,
  type: 'live.transport.incoming' | 'live.call.incoming' = 'live.transport.incoming',
) {
  return {
    object: 'event',
    id: `evt_${sessionId}`,
    type,
    created_at: NOW_MS / 1000,
    data: {
      ...(type === 'live.transport.incoming' && { type: 'sip' }),
      session_id: sessionId,
      sip_headers: [
        { name: 'From', value: 'sip:+15551230000@sip.example.com' },
        ...(sipCallId ? [{ name: 'call-id', value: sipCallId }] : []),
      ],
    },
  };
}
