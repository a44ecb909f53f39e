import { brand } from '../../brand.js';
import { ParleyError } from '../../errors.js';
import { errorText } from '../../logger.js';
import type { RealtimeCapability } from '../seam.js';

/** The session was closed; it cannot be used any more. Create a new `RealtimeSession`. */
export class SessionClosedError extends ParleyError {
  static {
    brand(SessionClosedError, 'core.SessionClosedError');
  }

  constructor(message = 'The realtime session is closed. Create a new RealtimeSession to talk again.') {
    super('session_closed', message);
  }
}

/** The session has no live connection: call `connect()` first (again after a disconnect). */
export class SessionNotConnectedError extends ParleyError {
  static {
    brand(SessionNotConnectedError, 'core.SessionNotConnectedError');
  }

  /** `reason`, when given, says why instead of the default advice; `cause` is what failed. */
  constructor(action: string, options?: { reason?: string; cause?: unknown }) {
    super(
      'session_not_connected',
      `Cannot ${action}: ${options?.reason ?? 'the realtime session is not connected. Call await session.connect() first.'}`,
      options?.cause !== undefined ? { cause: options.cause } : undefined,
    );
  }
}

/** `connect()` failed; everything it had acquired was released and `connect()` may be called again. */
export class RealtimeConnectError extends ParleyError {
  static {
    brand(RealtimeConnectError, 'core.RealtimeConnectError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super('connect_failed', message, options);
  }
}

/** The connection went away while something was waiting on it (a response, a tool output). */
export class ConnectionLostError extends ParleyError {
  static {
    brand(ConnectionLostError, 'core.ConnectionLostError');
  }

  constructor(
    message = 'The realtime connection was lost. Call connect() to reconnect.',
    options?: { cause?: unknown },
  ) {
    super('connection_lost', message, options);
  }
}

/**
 * A provider connection refused a command because it is not open: closed, closing, or broken by a failed write
 * (thrown by `RealtimeConnection.send`). The command was not sent; the connection reports
 * `connection_status: disconnected` if it had not yet.
 */
export class ConnectionClosedError extends ParleyError {
  static {
    brand(ConnectionClosedError, 'core.ConnectionClosedError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super('connection_closed', message, options);
  }
}

/** The provider's connection failed to close; `close()` again retries it. */
export class ConnectionCloseError extends ParleyError {
  static {
    brand(ConnectionCloseError, 'core.ConnectionCloseError');
  }

  constructor(cause: unknown) {
    const detail = errorText(cause);
    super(
      'connection_close_failed',
      `Closing the realtime connection failed (${detail}). Call close() again to retry.`,
      {
        cause,
      },
    );
  }
}

/** The provider refused a response request (for example because another response was active). */
export class ResponseRefusedError extends ParleyError {
  static {
    brand(ResponseRefusedError, 'core.ResponseRefusedError');
  }

  /** The provider's own error code, as the provider sent it. */
  readonly providerCode: string;
  /** The `clientRequestId` of the refused request. */
  readonly clientRequestId: string;

  constructor(providerCode: string, providerMessage: string, clientRequestId: string) {
    super(
      'response_refused',
      `The provider refused response request ${clientRequestId} (${providerCode}): ${providerMessage}`,
    );
    this.providerCode = providerCode;
    this.clientRequestId = clientRequestId;
  }
}

/** The provider did not start a requested response within `responseTimeoutMs`. */
export class ResponseTimeoutError extends ParleyError {
  static {
    brand(ResponseTimeoutError, 'core.ResponseTimeoutError');
  }

  /** The `clientRequestId` of the request that timed out. */
  readonly clientRequestId: string;
  /** The `responseTimeoutMs` it exceeded. */
  readonly timeoutMs: number;

  constructor(clientRequestId: string, timeoutMs: number) {
    super(
      'response_timeout',
      `The provider did not start response request ${clientRequestId} within ${timeoutMs} ms. ` +
        'Raise responseTimeoutMs if your provider is slow to start responses.',
    );
    this.clientRequestId = clientRequestId;
    this.timeoutMs = timeoutMs;
  }
}

/** The operation needs a capability the provider does not declare. */
export class CapabilityNotSupportedError extends ParleyError {
  static {
    brand(CapabilityNotSupportedError, 'core.CapabilityNotSupportedError');
  }

  /** The capability the operation needs. */
  readonly capability: RealtimeCapability;
  /** The provider that does not declare it. */
  readonly provider: string;

  constructor(capability: RealtimeCapability, provider: string, action: string) {
    super(
      'capability_not_supported',
      `Cannot ${action}: provider "${provider}" does not declare the "${capability}" capability.`,
    );
    this.capability = capability;
    this.provider = provider;
  }
}

/** The model called a tool the agent of its response does not have. The model gets an error output. */
export class UnknownToolError extends ParleyError {
  static {
    brand(UnknownToolError, 'core.UnknownToolError');
  }

  /** The tool name the model called. */
  readonly toolName: string;
  /** The agent that has no such tool. */
  readonly agentName: string;

  constructor(toolName: string, agentName: string) {
    super(
      'tool_not_found',
      `The model called tool "${toolName}", which agent "${agentName}" does not have. ` +
        'Add the tool to the agent, or check the instructions that mention it.',
    );
    this.toolName = toolName;
    this.agentName = agentName;
  }
}

/**
 * `generateResponse({ addToHistory: false })` was called while another ephemeral response was still in flight.
 * One ephemeral response runs at a time per session: wait for the first one's `done`, or `interrupt()` it.
 * Ordinary responses are not affected.
 */
export class EphemeralResponseInFlightError extends ParleyError {
  static {
    brand(EphemeralResponseInFlightError, 'core.EphemeralResponseInFlightError');
  }

  /** The `clientRequestId` of the ephemeral response in flight. */
  readonly inFlightRequestId: string;
  /** Its response id, once the provider started it. */
  readonly inFlightResponseId: string | undefined;
  /** How long ago (ms, on the session's clock) it was requested. */
  readonly ageMs: number;

  constructor(inFlightRequestId: string, inFlightResponseId: string | undefined, ageMs: number) {
    super(
      'ephemeral_response_in_flight',
      `Another ephemeral response is in flight (request ${inFlightRequestId}, response ${
        inFlightResponseId ?? 'not started yet'
      }, requested ${Math.round(ageMs)} ms ago). A session runs one ephemeral response at a time: await the ` +
        "first response's done, or call interrupt() to cancel it, before requesting another.",
    );
    this.inFlightRequestId = inFlightRequestId;
    this.inFlightResponseId = inFlightResponseId;
    this.ageMs = ageMs;
  }
}

/**
 * A turn was under way when the connection went away: the responses that were streaming (they ended with a
 * `failed` `response_done`; their messages are marked interrupted in history), the tool calls that were
 * running or waiting for approval (cancelled; their output says the result is unknown), and the response
 * requests that never started (their response handles were rejected). When the session reconnects by itself it
 * goes on without them: call `generateResponse()` after `reconnected`. Otherwise the session is `disconnected`:
 * call `connect()`.
 */
export class TurnLostError extends ParleyError {
  static {
    brand(TurnLostError, 'core.TurnLostError');
  }

  /** The responses that were streaming. */
  readonly responseIds: readonly string[];
  /**
   * The tool calls that were running or waiting for approval, and those whose output the provider had not
   * acknowledged (written or not: it stays in history, so a reconnect replays it, but the follow-up response it
   * waited for was lost).
   */
  readonly callIds: readonly string[];
  /** The response requests that never started. */
  readonly clientRequestIds: readonly string[];
  /**
   * User messages sent that the provider never acknowledged and that no reconnect will replay (a reconnect
   * replays them instead of naming them here).
   */
  readonly itemIds: readonly string[];

  /** `reconnecting`: whether the session reconnects by itself (default) or is now disconnected. */
  constructor(
    lost: { responseIds: string[]; callIds: string[]; clientRequestIds: string[]; itemIds?: string[] },
    reason: string,
    reconnecting = true,
  ) {
    const parts = [
      lost.responseIds.length > 0 && `response ${lost.responseIds.join(', ')}`,
      lost.callIds.length > 0 && `tool call ${lost.callIds.join(', ')}`,
      lost.clientRequestIds.length > 0 && `response request ${lost.clientRequestIds.join(', ')}`,
      (lost.itemIds?.length ?? 0) > 0 && `user message ${lost.itemIds?.join(', ')}`,
    ].filter(Boolean);
    super(
      'turn_lost',
      `The connection was lost (${reason}) while a turn was under way; lost: ${parts.join('; ')}. ` +
        (reconnecting
          ? 'The session reconnects without it: call generateResponse() after the reconnected event to go on.'
          : 'The session is disconnected: call connect() to go on.'),
    );
    this.responseIds = Object.freeze([...lost.responseIds]);
    this.callIds = Object.freeze([...lost.callIds]);
    this.clientRequestIds = Object.freeze([...lost.clientRequestIds]);
    this.itemIds = Object.freeze([...(lost.itemIds ?? [])]);
  }
}

/** Automatic reconnection gave up after `attempts` attempts; the session is `disconnected`. */
export class ReconnectFailedError extends ParleyError {
  static {
    brand(ReconnectFailedError, 'core.ReconnectFailedError');
  }

  /** How many attempts failed; `cause` holds the last failure. */
  readonly attempts: number;

  constructor(attempts: number, cause: unknown) {
    const detail = cause === undefined ? '' : `: ${errorText(cause)}`;
    super(
      'reconnect_failed',
      `Could not reconnect after ${attempts} attempt${attempts === 1 ? '' : 's'}${detail}. ` +
        'The session is disconnected; call connect() to try again.',
      { cause },
    );
    this.attempts = attempts;
  }
}

/**
 * The provider delivered a function call id the session already ran (or is running) with another tool name or
 * other arguments. A call id runs at most once per session: the new payload is not run and no second output is
 * sent. Usually a provider or replay bug; the first call's output stands.
 */
export class ToolCallConflictError extends ParleyError {
  static {
    brand(ToolCallConflictError, 'core.ToolCallConflictError');
  }

  /** The repeated call id. */
  readonly callId: string;

  constructor(callId: string, first: { name: string }, again: { name: string }) {
    super(
      'tool_call_conflict',
      `The provider delivered call ${callId} again with ${
        first.name === again.name
          ? `other arguments for "${again.name}"`
          : `tool "${again.name}" instead of "${first.name}"`
      }. A call id runs once per session: the repeat was not run and the first call's output stands.`,
    );
    this.callId = callId;
  }
}

/** A tool's output could not be written to the connection. The call is over; its response's follow-up still goes out. */
export class ToolOutputNotSentError extends ParleyError {
  static {
    brand(ToolOutputNotSentError, 'core.ToolOutputNotSentError');
  }

  /** The call whose output was not sent. */
  readonly callId: string;

  constructor(callId: string, toolName: string, cause: unknown) {
    const detail = cause === undefined ? '' : `: ${errorText(cause)}`;
    super(
      'tool_output_not_sent',
      `The output of call ${callId} ("${toolName}") could not be sent${detail}. The model goes on without it; ` +
        'if the connection was lost, the session reports the turn as lost.',
      { cause },
    );
    this.callId = callId;
  }
}

/**
 * The provider withdrew a function call (it sent `function_call_cancelled`, for example after the user interrupted
 * the response that made it). The tool's `signal` aborts with this error; its output is not sent, and `tool_done`
 * reports the call with status `cancelled`. Tools that hold resources should stop on their signal.
 */
export class ToolCallCancelledError extends ParleyError {
  static {
    brand(ToolCallCancelledError, 'core.ToolCallCancelledError');
  }

  /** The withdrawn call. */
  readonly callId: string;

  constructor(callId: string, toolName: string) {
    super(
      'tool_call_cancelled',
      `The provider cancelled call ${callId} ("${toolName}"): the tool was stopped and its output is not sent.`,
    );
    this.callId = callId;
  }
}

/**
 * The session stopped asking for automatic follow-ups: the last ones in a row only answered errors (a tool
 * that keeps failing or does not exist, a guardrail that keeps tripping). The next user input or
 * `generateResponse()` goes on as usual; fix the tool or the guardrail if it keeps happening.
 */
export class FollowUpLimitError extends ParleyError {
  static {
    brand(FollowUpLimitError, 'core.FollowUpLimitError');
  }

  /** What the stopped follow-up would have answered. */
  readonly reason: 'tool_follow_up' | 'guardrail';
  /** How many error-only follow-ups ran in a row before it. */
  readonly inARow: number;

  constructor(reason: 'tool_follow_up' | 'guardrail', inARow: number) {
    super(
      'follow_up_limit',
      `Stopped after ${inARow} automatic follow-ups in a row that only answered ${
        reason === 'guardrail' ? 'output guardrail trips' : 'tool errors'
      }; no further response was requested. The session waits for the next user input or generateResponse().`,
    );
    this.reason = reason;
    this.inARow = inARow;
  }
}

/** A request queued behind a response that went silent for `silentMs`. */
export interface BlockedRequest {
  clientRequestId: string;
  silentMs: number;
}

/**
 * A started response sent no event for `staleResponseMs`, or for a third of `responseTimeoutMs` while a request
 * was queued behind it (`blockedRequestId`): the session stopped waiting for it. It was cancelled by its id and ended
 * as `failed` (reason `stale`), so the requests queued behind it go out; anything the provider still sends for it
 * is ignored.
 */
export class StaleResponseError extends ParleyError {
  static {
    brand(StaleResponseError, 'core.StaleResponseError');
  }

  /** The response that went silent. */
  readonly responseId: string;
  /** The `staleResponseMs` it exceeded. */
  readonly staleResponseMs: number;
  /** The session's request the response answered; absent for a response the provider started on its own. */
  readonly clientRequestId?: string;
  /** The queued request the response kept waiting, when that is why it was dropped (before `staleResponseMs`). */
  readonly blockedRequestId?: string;

  constructor(
    responseId: string,
    staleResponseMs: number,
    clientRequestId?: string,
    blocked?: BlockedRequest,
  ) {
    super(
      'response_stale',
      blocked
        ? `Response ${responseId} sent no event for ${blocked.silentMs} ms while request ${blocked.clientRequestId} ` +
            'waited behind it, and never ended; the session cancelled it and sent the request. Raise ' +
            'responseTimeoutMs if your provider pauses that long inside a response.'
        : `Response ${responseId} sent no event for ${staleResponseMs} ms and never ended; the session cancelled it and ` +
            'moved on. Raise staleResponseMs if your provider pauses that long inside a response.',
    );
    this.responseId = responseId;
    this.staleResponseMs = staleResponseMs;
    if (clientRequestId !== undefined) this.clientRequestId = clientRequestId;
    if (blocked !== undefined) this.blockedRequestId = blocked.clientRequestId;
  }
}
