/**
 * The tunables and memory bounds of @parley/core, in one place. The bounds that interact are sized together:
 * interruption snapshots and parallel-tool groups outlive the per-response ledgers they consult, so each
 * remembers at least as many responses as the ledgers it asks.
 */

// ── memory bounds (entries kept for finished responses / messages) ───────────────────────────

/** Responses whose message order and byte ledger MessageOrder keeps. */
export const MESSAGE_ORDER_RESPONSES_LIMIT = 32;
/** Finished responses ResponseTracker keeps (besides the one whose audio arrived last). */
export const TRACKED_RESPONSES_LIMIT = 32;
/**
 * Responses dropped as stale remembered, so that whatever they still deliver (a tool call above all) is ignored
 * after ResponseTracker forgot them. A drop takes a whole `staleResponseMs` of silence, so this outlasts any session.
 */
export const DROPPED_RESPONSES_LIMIT = 1024;
/** Settled interruption snapshots kept, so a late event of a stopped response is still recognised. */
export const INTERRUPTION_SNAPSHOTS_LIMIT = 64;
/** Ended responses remembered so a late function call of one is not grouped with it. */
export const RECENTLY_ENDED_RESPONSES_LIMIT = 64;
/** Messages whose played position the default playback tracker keeps. */
export const PLAYBACK_ENTRIES_LIMIT = 64;
/** Ended responses whose tracing span stays the parent of late tool calls and interruptions. */
export const TRACED_ENDED_RESPONSES_LIMIT = 8;

// ── sizes ─────────────────────────────────────────────────────────────────────────────────────

/** Transcript and text deltas kept apart before they are joined into a message's text. */
export const TEXT_DELTAS_PER_JOIN = 16;
/**
 * The longest single context append the session sends (characters). Providers cap an append (some at 500
 * tokens); longer results go out in several appends.
 */
export const CONTEXT_APPEND_CHUNK_CHARS = 1600;

// ── timing ────────────────────────────────────────────────────────────────────────────────────

/** Default `maxTurns` of a Runner run. */
export const DEFAULT_MAX_TURNS = 10;
/** Default time a response request may wait for the provider to start it (`responseTimeoutMs`). */
export const DEFAULT_REPLY_TIMEOUT_MS = 15_000;
/**
 * How long a closing session (or a reconnect) waits for its cancelled tasks (tools, guardrails, delegations) to
 * finish before it goes on without them.
 */
export const CANCELLED_TASK_GRACE_MS = 5_000;
/** Default time a started response may send nothing before the session drops it (`staleResponseMs`). */
export const DEFAULT_STALE_RESPONSE_MS = 30_000;
/** Default characters between two output-guardrail runs (`guardrailDebounceChars`). */
export const DEFAULT_GUARDRAIL_DEBOUNCE_CHARS = 100;
/** A connection that drops this soon after a reconnect continues the outage's attempt count. */
export const STABLE_CONNECTION_MS = 30_000;
/** How often a due recycle checks again whether the conversation is between turns. */
export const RECYCLE_RECHECK_MS = 1_000;
/**
 * How long after the user stopped speaking (or a tool output went out on a provider that answers tool
 * outputs by itself) the provider is assumed to be about to start a response.
 */
export const EXPECTED_RESPONSE_GRACE_MS = 5_000;

/**
 * How many automatic follow-ups in a row may answer nothing but errors (tool calls that all failed, guardrail
 * corrections) before the session stops requesting them.
 */
export const MAX_ERROR_FOLLOW_UPS = 3;

/** Default reconnect policy (`reconnect` option). */
export const DEFAULT_RECONNECT = {
  maxAttempts: 5,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
  jitter: 0.2,
  recycle: true,
  recycleBeforeExpiryMs: 60_000,
} as const;
