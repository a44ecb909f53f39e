/**
 * The tunables and bounds of @parley/openai, in one place (option defaults and the limits the adapters keep to).
 * The simulators in `testing/` model the service and keep the service's own limits next to the rules they enforce.
 */

// ── connections (Realtime and GPT-Live) ──────────────────────────────────────────────────────

/** Default `connectTimeoutMs`: the socket opened and the session confirmed. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Default `closeTimeoutMs`: the closing handshake before the socket is dropped. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
/**
 * Ended responses the Realtime event normalizer remembers, so that a `response.created` arriving after its
 * `response.done` is recognised as late and leaves nothing behind.
 */
export const ENDED_RESPONSES_LIMIT = 64;

// ── GPT-Live ──────────────────────────────────────────────────────────────────────────────────

/** Default `silenceFrameMs`: the silence frames sent while the app sends no audio. */
export const DEFAULT_SILENCE_FRAME_MS = 100;
/** Default `turnGapMs`: output silence that ends a spoken response, a transcript gap that ends a user turn. */
export const DEFAULT_TURN_GAP_MS = 800;
/** What one GPT-Live session may add to the Responses backend's input: items and bytes. */
export const BACKEND_ITEM_LIMIT = 128;
export const BACKEND_BYTE_LIMIT = 32_768;

// ── Responses (HTTP) ──────────────────────────────────────────────────────────────────────────

/** Default `maxRetries` of a Responses request. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default `timeoutMs` of a Responses request. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
/** Retry backoff: the first delay, and the longest. */
export const RETRY_INITIAL_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;
/** A server-sent retry delay longer than this is not trusted; the computed backoff is used instead. */
export const RETRY_MAX_HEADER_DELAY_MS = 60_000;

/** WebRTC: how long a call's offer waits for ICE candidates before it goes with those gathered so far. */
export const DEFAULT_ICE_GATHERING_TIMEOUT_MS = 3_000;

/** WebRTC: how long a peer may stay `disconnected` (ICE may recover) before the call counts as lost. */
export const DEFAULT_DISCONNECTED_GRACE_MS = 5_000;
