import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Why a Gemini Live connection could not be opened, or ended for good. */
export type GeminiLiveErrorCode =
  /** No credentials: no `apiKey`, `GEMINI_API_KEY` / `GOOGLE_API_KEY`, `ephemeralToken` or `vertex`. */
  | 'gemini_missing_credentials'
  /** The `ephemeralToken` or `vertex.accessToken` function threw or returned something that is not a token. */
  | 'gemini_credentials_unavailable'
  /** The service refused the credentials (HTTP 401/403 at the upgrade, or close code 1007 naming the key). */
  | 'gemini_auth_failed'
  /** The WebSocket handshake failed for another reason (network, another HTTP status). */
  | 'gemini_handshake_failed'
  /** The service closed the connection before `setupComplete` (`closeCode` and the reason say why). */
  | 'gemini_setup_refused'
  /** No `setupComplete` within `connectTimeoutMs`. */
  | 'gemini_connect_timeout';

/** A failure to open a Gemini Live session. Messages never contain a key or token. */
export class GeminiLiveError extends ParleyError {
  static {
    brand(GeminiLiveError, 'google.GeminiLiveError');
  }

  override readonly code: GeminiLiveErrorCode;
  readonly status?: number;
  readonly closeCode?: number;

  constructor(
    code: GeminiLiveErrorCode,
    message: string,
    details: { status?: number; closeCode?: number; cause?: unknown } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    if (details.closeCode !== undefined) this.closeCode = details.closeCode;
  }
}

/**
 * The close codes after which the same request fails again (the service documents none; its gateway maps invalid
 * arguments and an invalid key to 1007 and refused requests — unknown model, permission — to 1008): a session
 * closed with one of them is not reconnected.
 */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([1007, 1008]);
