import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/**
 * A Media Streams call could not go on: the session is not set up for a phone line, or Twilio sent something the
 * bridge cannot read. `code` says which: `twilio_session_not_phone_ready`, `twilio_invalid_message`, or `invalid_option` (a bad option
 * value, thrown before anything connects).
 */
export class TwilioMediaStreamError extends ParleyError {
  static {
    brand(TwilioMediaStreamError, 'twilio.TwilioMediaStreamError');
  }
}

/**
 * An incoming webhook failed authentication: `twilio_signature_missing` (no `X-Twilio-Signature`),
 * `twilio_signature_invalid` (not signed with this auth token for this URL and body), or `twilio_request_replayed`
 * (the same signed request was seen within the replay window). Answer it with HTTP 403.
 */
export class TwilioWebhookError extends ParleyError {
  static {
    brand(TwilioWebhookError, 'twilio.TwilioWebhookError');
  }

  /** The HTTP status to answer with. */
  readonly status = 403;
}
