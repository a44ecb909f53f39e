import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Why an OpenAI Realtime connection could not be opened or used. */
export type OpenAIRealtimeErrorCode =
  /** The service refused the credentials at the HTTP upgrade (401/403). */
  | 'realtime_auth_failed'
  /** The WebSocket handshake failed for another reason (network, another HTTP status). */
  | 'realtime_handshake_failed'
  /** The socket closed before the session was ready. */
  | 'realtime_closed_before_ready'
  /** The service rejected the initial `session.update`. */
  | 'realtime_session_rejected'
  /** No `session.created` / `session.updated` arrived within `connectTimeoutMs`. */
  | 'realtime_connect_timeout'
  /** The `apiKeyProvider` threw or returned something that is not a key. */
  | 'realtime_api_key_unavailable'
  /** WebRTC: the service refused the SDP offer (another HTTP status than 401/403), or answered without SDP. */
  | 'realtime_sdp_exchange_failed'
  /** WebRTC: this runtime has no `RTCPeerConnection` and no `createPeerConnection` was given. */
  | 'realtime_webrtc_unavailable';

/**
 * A failure of the OpenAI Realtime transport. `status` is the HTTP status of a refused upgrade; `closeCode` and
 * `closeReason` describe the WebSocket close when there was one. Messages never contain the API key.
 */
export class OpenAIRealtimeError extends ParleyError {
  static {
    brand(OpenAIRealtimeError, 'openai.OpenAIRealtimeError');
  }

  override readonly code: OpenAIRealtimeErrorCode;
  readonly status?: number;
  readonly closeCode?: number;
  readonly closeReason?: string;
  /** The `error.code` of the service's `error` event, when one explains the failure. */
  readonly serverCode?: string;

  constructor(
    code: OpenAIRealtimeErrorCode,
    message: string,
    details: {
      status?: number;
      closeCode?: number;
      closeReason?: string;
      serverCode?: string;
      cause?: unknown;
    } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    if (details.closeCode !== undefined) this.closeCode = details.closeCode;
    if (details.closeReason !== undefined) this.closeReason = details.closeReason;
    if (details.serverCode !== undefined) this.serverCode = details.serverCode;
  }
}
