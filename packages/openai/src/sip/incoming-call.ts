/**
 * One SIP header of the caller's INVITE, as OpenAI forwarded it. **Untrusted**: the caller (or any SIP peer on the
 * way) chooses these values. Use them to route or to greet, never to authorize.
 */
export interface SipHeader {
  readonly name: string;
  readonly value: string;
}

export interface IncomingSipCallBase {
  /** The `webhook-id` of the webhook that announced the call. */
  readonly webhookId: string;
  /** The INVITE's headers: caller-controlled, untrusted data. */
  readonly sipHeaders: readonly SipHeader[];
}

/** A call announced by `realtime.call.incoming`: controlled under `/v1/realtime/calls/{callId}`. */
export interface IncomingRealtimeSipCall extends IncomingSipCallBase {
  readonly api: 'realtime';
  readonly eventType: 'realtime.call.incoming';
  /** The call's id (`rtc_…`), kept verbatim. */
  readonly callId: string;
}

/**
 * A call announced by `live.transport.incoming` (or the deprecated `live.call.incoming`): controlled under
 * `/v1/live/sessions/{sessionId}`.
 */
export interface IncomingLiveSipCall extends IncomingSipCallBase {
  readonly api: 'live';
  readonly eventType: 'live.transport.incoming' | 'live.call.incoming';
  /** The GPT-Live session's id, kept verbatim. */
  readonly sessionId: string;
}

/** A pending SIP call waiting to be accepted, rejected or referred. */
export type IncomingSipCall = IncomingRealtimeSipCall | IncomingLiveSipCall;

/** The value of the first header named `name` (case-insensitive), or `undefined`. Untrusted, like every header. */
export function sipHeader(call: Pick<IncomingSipCall, 'sipHeaders'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return call.sipHeaders.find((header) => header.name.toLowerCase() === wanted)?.value;
}
