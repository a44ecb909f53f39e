/**
 * GPT-Live's failures after which its session does not go on. The service documents no fatal flag on `error`; the
 * rules are what is known of it: errors about the account or the key end the session (quota, billing, a revoked key),
 * and a socket closed without `session.closed` with a close code its SDK treats as final (not 1000, and not one of the
 * transient codes a client reconnects after) ends it for a reason the next connection would meet again.
 */
const FATAL_ERROR_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'invalid_api_key',
  'account_deactivated',
  'billing_hard_limit_reached',
  'credit_balance_exhausted',
]);

/** The close codes after which GPT-Live's SDK reconnects: going away, no status, abnormal, server errors, TLS. */
const TRANSIENT_CLOSE_CODES: ReadonlySet<number> = new Set([1001, 1005, 1006, 1011, 1012, 1013, 1015]);

/** The standard names of the final close codes, as the fatal `error` event's code. */
const CLOSE_NAMES: Readonly<Record<number, string>> = {
  1002: 'protocol_error',
  1003: 'unsupported_data',
  1007: 'invalid_frame_payload_data',
  1008: 'policy_violation',
  1009: 'message_too_big',
  1010: 'mandatory_extension',
};

/** Whether an `error` event with this code ends the GPT-Live session. */
export function isFatalLiveError(code: string): boolean {
  return FATAL_ERROR_CODES.has(code);
}

/** The fatal error a close of the socket by the service stands for (`undefined`: a normal or transient close). */
export function fatalLiveClose(close: {
  code: number;
  reason: string;
}): { code: string; message: string } | undefined {
  if (close.code === 1000 || TRANSIENT_CLOSE_CODES.has(close.code)) return undefined;
  return {
    code: CLOSE_NAMES[close.code] ?? `close_${close.code}`,
    message: `GPT-Live closed the session (close code ${close.code}): ${close.reason || 'no reason given'}.`,
  };
}
