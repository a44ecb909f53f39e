import { ParleyError, UserError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Why an SIP webhook was refused. */
export type OpenAISipWebhookErrorCode =
  | 'sip_webhook_invalid_signature'
  | 'sip_webhook_stale'
  | 'sip_webhook_malformed';

const STATUS: Record<OpenAISipWebhookErrorCode, number> = {
  sip_webhook_invalid_signature: 401,
  sip_webhook_stale: 401,
  sip_webhook_malformed: 400,
};

/**
 * An incoming OpenAI webhook was refused: `sip_webhook_invalid_signature` (a `webhook-*` header is missing, or the
 * signature was not made with this secret over this id, timestamp and body), `sip_webhook_stale` (the
 * `webhook-timestamp` is outside the tolerance: a replay or a badly wrong clock) or `sip_webhook_malformed` (signed,
 * but not a webhook this handler can read). Answer with `status`. The message never contains the secret.
 */
export class OpenAISipWebhookError extends ParleyError {
  static {
    brand(OpenAISipWebhookError, 'openai.OpenAISipWebhookError');
  }

  declare readonly code: OpenAISipWebhookErrorCode;
  /** The HTTP status to answer with: 401 for a bad signature or a stale timestamp, 400 for a malformed webhook. */
  readonly status: number;

  constructor(code: OpenAISipWebhookErrorCode, message: string) {
    super(code, message);
    this.status = STATUS[code];
  }
}

/**
 * `answerSipCall` was given an option that does not apply to the kind of call it answers (`callApi`): `sessionConfig`
 * or `realtimeURL` for a GPT-Live call, `delegate` or `liveURL` for a Realtime call. Refused before the call is
 * accepted, so the call keeps ringing and nothing was silently ignored; the message says what to use instead. An
 * endpoint that answers both kinds builds the options from `call.api`.
 */
export class SipCallOptionError extends UserError {
  static {
    brand(SipCallOptionError, 'openai.SipCallOptionError');
  }

  /** The option that does not apply. */
  readonly option: string;
  /** The kind of call answered. */
  readonly callApi: 'realtime' | 'live';

  constructor(option: string, callApi: 'realtime' | 'live', instead: string) {
    super(
      `answerSipCall: ${option} does not apply to a ${callApi === 'live' ? 'GPT-Live' : 'Realtime'} call. ${instead} ` +
        'An endpoint that answers both kinds of call builds the options from call.api.',
      { code: 'invalid_option' },
    );
    this.option = option;
    this.callApi = callApi;
  }
}
