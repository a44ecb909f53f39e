import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Why a GPT-Live connection could not be opened. */
export type OpenAILiveErrorCode =
  /** The service refused the credentials at the HTTP upgrade (401/403). */
  | 'live_auth_failed'
  /** The WebSocket handshake failed for another reason (network, another HTTP status). */
  | 'live_handshake_failed'
  /** The socket closed before `session.started`. */
  | 'live_closed_before_ready'
  /** The service answered `session.start` with an error (`serverCode` says which, e.g. `unknown_parameter`). */
  | 'live_session_rejected'
  /** No `session.started` within `connectTimeoutMs`. */
  | 'live_connect_timeout'
  /** The `apiKeyProvider` threw or returned something that is not a key. */
  | 'live_api_key_unavailable';

/** A failure to open a GPT-Live session. Messages never contain the API key. */
export class OpenAILiveError extends ParleyError {
  static {
    brand(OpenAILiveError, 'openai.OpenAILiveError');
  }

  override readonly code: OpenAILiveErrorCode;
  readonly status?: number;
  readonly closeCode?: number;
  /** The `error.code` of the service's `error` event, when one explains the failure. */
  readonly serverCode?: string;

  constructor(
    code: OpenAILiveErrorCode,
    message: string,
    details: { status?: number; closeCode?: number; serverCode?: string; cause?: unknown } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    if (details.closeCode !== undefined) this.closeCode = details.closeCode;
    if (details.serverCode !== undefined) this.serverCode = details.serverCode;
  }
}
