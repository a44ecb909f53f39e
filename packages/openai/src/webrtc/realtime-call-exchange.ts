import { OpenAIRealtimeError } from '../realtime/errors.js';
import { authenticatedPost } from '../shared/authenticated-post.js';

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
  const answer = await authenticatedPost({
    url: options.url,
    key: options.key,
    body: { sdp: options.offerSdp },
    service: 'the Realtime service',
    fetch: options.fetch,
    signal: options.signal,
  });
  const { status, text } = answer;
  if (status === 401 || status === 403) {
    throw new OpenAIRealtimeError(
      'realtime_auth_failed',
      `The Realtime service refused the credentials for the call (HTTP ${status}). Mint a new client ` +
        'secret on your server (createClientSecret) and check that it may use this model.',
      { status },
    );
  }
  if (!answer.ok || !text.trimStart().startsWith('v=')) {
    const detail = answer.errorMessage === undefined ? '' : `: ${answer.errorMessage}`;
    throw new OpenAIRealtimeError(
      'realtime_sdp_exchange_failed',
      answer.ok
        ? `The Realtime service answered the call's SDP offer without an SDP answer (HTTP ${status}).`
        : `The Realtime service refused the call's SDP offer (HTTP ${status})${detail}.`,
      { status },
    );
  }
  return { answerSdp: text, callId: callIdOf(answer.headers.get('location')) };
}
