import { OpenAISipWebhookError } from './errors.js';
import type { IncomingSipCall, SipHeader } from './incoming-call.js';

/** What a verified webhook body announces. */
export type WebhookPayload = { kind: 'call'; call: IncomingSipCall } | { kind: 'other'; type: string };

const malformed = (detail: string) =>
  new OpenAISipWebhookError('sip_webhook_malformed', `The webhook is signed but malformed: ${detail}.`);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function requiredId(data: Record<string, unknown>, field: string, type: string): string {
  const value = data[field];
  if (typeof value !== 'string' || value.length === 0) throw malformed(`${type} has no "data.${field}"`);
  return value;
}

function sipHeaders(value: unknown, type: string): readonly SipHeader[] {
  if (value === undefined || value === null) return Object.freeze([]);
  if (!Array.isArray(value)) throw malformed(`${type} "data.sip_headers" is not a list`);
  return Object.freeze(
    value.map((header) => {
      if (!isRecord(header) || typeof header.name !== 'string' || typeof header.value !== 'string') {
        throw malformed(`${type} has a SIP header without a string "name" and "value"`);
      }
      return Object.freeze({ name: header.name, value: header.value });
    }),
  );
}

/** Reads a verified webhook body: an incoming SIP call (Realtime or GPT-Live), or another event. */
export function parseWebhookPayload(body: string, webhookId: string): WebhookPayload {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw malformed('the body is not JSON');
  }
  if (!isRecord(json) || typeof json.type !== 'string') throw malformed('the body has no "type"');
  const { type } = json;
  const data = json.data;
  if (type === 'realtime.call.incoming') {
    if (!isRecord(data)) throw malformed(`${type} has no "data"`);
    return {
      kind: 'call',
      call: Object.freeze({
        api: 'realtime',
        eventType: type,
        callId: requiredId(data, 'call_id', type),
        webhookId,
        sipHeaders: sipHeaders(data.sip_headers, type),
      }),
    };
  }
  if (type === 'live.transport.incoming' || type === 'live.call.incoming') {
    if (!isRecord(data)) throw malformed(`${type} has no "data"`);
    // The deprecated event has no data.type; the current one names its transport, and only SIP is a phone call.
    if (type === 'live.transport.incoming' && data.type !== 'sip') return { kind: 'other', type };
    return {
      kind: 'call',
      call: Object.freeze({
        api: 'live',
        eventType: type,
        sessionId: requiredId(data, 'session_id', type),
        webhookId,
        sipHeaders: sipHeaders(data.sip_headers, type),
      }),
    };
  }
  return { kind: 'other', type };
}
