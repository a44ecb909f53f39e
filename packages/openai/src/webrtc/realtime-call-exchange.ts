import { ServiceUnreachableError } from '@parley/core';
import { OpenAIRealtimeError } from '../realtime/errors.js';
import { networkFailureText } from '../shared/network-failure.js';
import { redactCause, redactSecrets } from '../shared/redact.js';

/** The service's answer to a call's SDP offer. */
export interface RealtimeCallAnswer {
  /** The SDP answer, for `setRemoteDescription`. */
  answerSdp: string;
  /** The call's id (`rtc_…`, from the answer's `Location`), for a sideband (`?call_id=`) or call control. */
  callId: string | undefined;
}

/** The call id at the end of a `Location` such as `/v1/realtime/calls/rtc_123`. */
function callIdOf(location: string | null): string | undefined {
  if (!location) return undefined;
  const id = location.split('?')[0]?.split('/').filter(Boolean).at(-1);
  return id === undefined || id === 'calls' ? undefined : decodeURIComponent(id);
}

/**
 * Starts a Realtime call: `POST {url}` (`…/v1/realtime/calls`) with the SDP offer (`Content-Type: application/sdp`)
 * and `Authorization: Bearer <key>` (an ephemeral `ek_` key in a browser). Resolves with the SDP answer and the call
 * id; a refusal is an {@link OpenAIRealtimeError} (401/403: `realtime_auth_failed`), no answer at all a
 * `ServiceUnreachableError`. The key never appears in either.
 */
export async function postRealtimeCall(options: {
  url: string;
  key: string;
  offerSdp: string;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal | undefined;
}): Promise<RealtimeCallAnswer> {
  const { url, key, fetch } = options;
  let response: Response;
  try {
    // Called on no object: a browser's fetch throws "Illegal invocation" when called as another object's method.
    response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/sdp' },
      body: options.offerSdp,
      ...(options.signal && { signal: options.signal }),
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new ServiceUnreachableError(
      'the Realtime service',
      url,
      redactSecrets(networkFailureText(error), [key]),
      {
        cause: redactCause(error, [key]),
      },
    );
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403) {
    throw new OpenAIRealtimeError(
      'realtime_auth_failed',
      `The Realtime service refused the credentials for the call (HTTP ${response.status}). Mint a new client ` +
        'secret on your server (createClientSecret) and check that it may use this model.',
      { status: response.status },
    );
  }
  if (!response.ok || !text.trimStart().startsWith('v=')) {
    let detail = '';
    try {
      const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
      if (typeof message === 'string') detail = `: ${redactSecrets(message, [key])}`;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new OpenAIRealtimeError(
      'realtime_sdp_exchange_failed',
      response.ok
        ? `The Realtime service answered the call's SDP offer without an SDP answer (HTTP ${response.status}).`
        : `The Realtime service refused the call's SDP offer (HTTP ${response.status})${detail}.`,
      { status: response.status },
    );
  }
  return { answerSdp: text, callId: callIdOf(response.headers.get('location')) };
}
