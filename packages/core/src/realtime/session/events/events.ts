import type { Agent, AnyAgent } from '../../../agent.js';
import type { HostedToolCallItem } from '../../../items.js';
import type { RunStreamEvent } from '../../../runner/stream-events.js';
import type { ToolInvocationResult } from '../../../tool.js';
import type {
  ContextAppendKind,
  DtmfDigit,
  RealtimeResponseEndReason,
  RealtimeResponseStatus,
  RealtimeUsage,
} from '../../seam.js';
import type { RealtimeHistoryItem } from '../history/history-item.js';

/** The lifecycle state of a {@link RealtimeSession}. */
export type RealtimeSessionStatus =
  | 'idle'
  | 'connecting'
  | 'connected'
  /** Connecting again by itself after a lost connection, or swapping in a fresh one (see `reconnect`). */
  | 'reconnecting'
  | 'disconnected'
  | 'closed';

/**
 * Why the session reconnects: the connection closed unexpectedly (`connection_lost`), the provider ended
 * the session at its time limit (`session_expired`), or the session replaces the connection between turns
 * before that limit (`recycle`, planned).
 */
export type RealtimeReconnectReason = 'connection_lost' | 'session_expired' | 'recycle';

/** Where an `error` event comes from. */
export type RealtimeErrorSource = 'provider' | 'session' | 'tool' | 'guardrail' | 'listener';

/**
 * How a function-tool call ended: an {@link invokeFunctionTool} status, `approval_rejected` (the app
 * rejected it) or `error` (a tool guardrail tripwire or a raising timeout; the model got an error output).
 */
/** How a tool call ended; `cancelled`: the provider withdrew the call, the tool was stopped and no output was sent. */
export type RealtimeToolCallStatus =
  | ToolInvocationResult['status']
  | 'approval_rejected'
  | 'error'
  | 'cancelled';

/**
 * How one assistant message ended for the listener: heard (or shown) in `full`, heard in `partial` (cut where
 * the listener stopped hearing it), or `skipped` (never heard).
 */
export type RealtimeMessageOutcome = 'full' | 'partial' | 'skipped';

/** One assistant message of a turn, as the listener got it (see the `turn_done` event). */
export type RealtimeTurnMessage =
  /** Heard (or, text output, shown) in full: `text` is its final transcript. */
  | { readonly itemId: string; readonly outcome: 'full'; readonly text: string }
  /**
   * Heard in part: `text` is what arrived before the cut, `heardText` the leading part of it the heard audio
   * covers, `heardMs` how much of its audio was heard (absent for text output).
   */
  | {
      readonly itemId: string;
      readonly outcome: 'partial';
      readonly text: string;
      readonly heardText: string;
      readonly heardMs?: number;
    }
  /** Never heard (it left the history): `text` is what had arrived. */
  | { readonly itemId: string; readonly outcome: 'skipped'; readonly text: string };

/**
 * Every event a {@link RealtimeSession} emits, as one discriminated union on `type`. Subscribe with
 * `session.on(type, fn)` or iterate them all with `for await (const event of session)`.
 */
export type RealtimeSessionEvent<TContext = unknown> =
  /** The session's connection changed state. `closed` is the last event a session emits. */
  | {
      type: 'connection_status';
      status: 'connecting' | 'connected' | 'disconnected' | 'closed';
      reason?: string;
    }
  /**
   * The session is reconnecting by itself (status `reconnecting`): one event per attempt, before its
   * `delayMs` wait. `error` is why the previous attempt failed.
   */
  | {
      type: 'reconnecting';
      reason: RealtimeReconnectReason;
      /** 1-based; the attempts of one outage are bounded by `maxAttempts`. */
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      /** The provider's reason for the close, when it gave one. */
      detail?: string;
      error?: unknown;
    }
  /**
   * Connected again: the agent's configuration was applied and the history replayed into the new
   * conversation (`replayedItems` items). The agent stays active throughout: no `agent_done`/`agent_started`.
   */
  | {
      type: 'reconnected';
      reason: RealtimeReconnectReason;
      attempt: number;
      replayedItems: number;
      /**
       * `true`: the provider resumed the conversation (`sessionResumption`); only what its resume token does not hold
       * was replayed (`replayedItems`).
       */
      resumed?: true;
    }
  /** An agent became the active agent of a live connection (on connect, on a handoff or `updateAgent`). */
  | { type: 'agent_started'; agent: Agent<TContext> }
  /** An agent stopped being active (replaced, disconnected or closed). */
  | { type: 'agent_done'; agent: Agent<TContext>; reason: 'switch' | 'disconnect' | 'close' }
  /**
   * The active agent changed. `via: 'tool_call'` when the model called a handoff tool,
   * `'update_agent'` when the app called `updateAgent()`; both go through the same code path.
   */
  | {
      type: 'handoff';
      from: Agent<TContext>;
      to: Agent<TContext>;
      via: 'tool_call' | 'update_agent';
      /** The handoff tool call, for `via: 'tool_call'`. */
      callId?: string;
    }
  /** The provider started a response. */
  | {
      type: 'response_started';
      responseId: string;
      ephemeral: boolean;
      /** The agent the response belongs to; its tool calls run against this agent. */
      agent: Agent<TContext>;
      /** Set when the response answers a request made by the session (`generateResponse`, tool follow-ups). */
      clientRequestId?: string;
    }
  /** A response ended. */
  | {
      type: 'response_done';
      responseId: string;
      status: RealtimeResponseStatus;
      ephemeral: boolean;
      /** Why it ended, when not `completed` and the provider (or the session, for `connection_lost`) says. */
      reason?: RealtimeResponseEndReason;
      /** With `reason: 'provider_error'`: the provider's error code. */
      errorCode?: string;
      /** The response's token usage, when the provider reports it (also summed into `session.usage`). */
      usage?: RealtimeUsage;
    }
  /**
   * One conversation response is over for the listener (once per response, after its `response_done`; for
   * a response with audio, once its audio was heard to the end, it was interrupted, or the connection ended).
   */
  | {
      type: 'turn_done';
      responseId: string;
      /** The agent whose response it was. */
      agent: Agent<TContext>;
      status: RealtimeResponseStatus;
      reason?: RealtimeResponseEndReason;
      /**
       * `full`: every message was heard in full (also a turn of tool calls only); `skipped`: none of it was
       * heard (or it ended before saying anything); `partial`: anything in between.
       */
      outcome: RealtimeMessageOutcome;
      /** What the listener got: the text of the full messages and the heard text of the partial ones, joined. */
      transcript: string;
      /** Its assistant messages, in order. */
      messages: readonly RealtimeTurnMessage[];
      /** The function calls it made, in order (their outputs follow in `tool_done`). */
      toolCalls: readonly { readonly callId: string; readonly name: string }[];
    }
  /** A function tool started running (after any approval). */
  | {
      type: 'tool_started';
      agent: Agent<TContext>;
      callId: string;
      name: string;
      arguments: string;
      responseId?: string;
      /** The call of a `delegate` agent answering this delegation (not of the voice model). */
      delegationId?: string;
    }
  /**
   * A function tool call ended and its `output` was sent to the model; with status `cancelled` the provider withdrew
   * it: the tool's signal aborted and nothing was sent (`output` is empty).
   */
  | {
      type: 'tool_done';
      agent: Agent<TContext>;
      callId: string;
      name: string;
      output: string;
      status: RealtimeToolCallStatus;
      responseId?: string;
      /** The call of a `delegate` agent answering this delegation (not of the voice model). */
      delegationId?: string;
      /** `true`: the tool returned a `backgroundResult`; its output asked the model for no response. */
      background?: true;
      /**
       * What the tool threw (status `failed`, or `error` when a tool guardrail or timeout stopped the call). The
       * model got a generic `output`, not this error's text.
       */
      error?: unknown;
    }
  /**
   * An event of the run of an agent tool (`agent.asTool()`) the model called, as a streamed `Runner` run reports it
   * (`agent_tool_event`): the nested run is streamed while anyone listens for this type when the call starts, and each
   * of its events arrives here before the call's `tool_done`.
   */
  | {
      type: 'agent_tool_event';
      /** The agent the nested run runs. */
      agent: AnyAgent<TContext>;
      /** The agent tool's name, as the model called it. */
      toolName: string;
      /** The id of the session's tool call the nested run answers. */
      toolCallId: string;
      /** The nested run's event (itself an `agent_tool_event` for a run nested deeper). */
      event: RunStreamEvent<TContext>;
      /** The response that made the call. */
      responseId?: string;
    }
  /**
   * A tool call waits for `session.approve(callId)` or `session.reject(callId)`: a function tool's, or (with `hosted`)
   * a call the provider asks to make to a hosted MCP server's tool `name`.
   */
  | {
      type: 'tool_approval_requested';
      agent: Agent<TContext>;
      callId: string;
      name: string;
      arguments: string;
      responseId?: string;
      /** Set for a tool the provider runs itself (`hostedTools`): the hosted MCP server the tool belongs to. */
      hosted?: { readonly kind: 'mcp'; readonly server: string };
    }
  /**
   * The provider called one of its hosted tools (a hosted MCP server's tool: started, then completed or failed with
   * its output), or listed a hosted MCP server's tools. `item` has the shape of a text run's hosted tool item.
   */
  | {
      type: 'hosted_tool_call';
      agent: Agent<TContext>;
      item: Extract<HostedToolCallItem, { kind: 'mcp' }>;
      responseId?: string;
      /** The approval the call was made under (the `callId` of its `tool_approval_requested`). */
      approvalId?: string;
    }
  /**
   * The voice model delegated work (providers with `delegation`). `target: 'app'`: answer with
   * `session.appendContext(..., { delegationId })`, or let the session's `delegate` agent answer it.
   */
  | { type: 'delegation_requested'; delegationId: string; offsetMs: number; target: 'app' | 'provider' }
  /** The session's `delegate` agent started on a delegation. */
  | { type: 'delegation_started'; delegationId: string; agent: Agent<TContext> }
  /** A delegated tool call waits for `session.approve(callId)` or `session.reject(callId)`; the voice goes on. */
  | {
      type: 'delegation_approval_requested';
      delegationId: string;
      callId: string;
      name: string;
      arguments: string;
    }
  /** The `delegate` agent finished; `output` went back to the voice model (`failed`: a spoken failure notice). */
  | { type: 'delegation_done'; delegationId: string; status: 'completed' | 'failed'; output: string }
  /** An appended context reached the model at this span of the provider's timeline. */
  | {
      type: 'context_appended';
      kind: ContextAppendKind;
      startMs: number;
      endMs: number;
      clientRequestId?: string;
    }
  /** Billed audio so far (cumulative seconds) and context fullness (0–1), as the provider reports them. */
  | { type: 'usage_updated'; audioSeconds: number; contextWindowRatio?: number }
  /** The provider's continuous output carried silence between responses (providers with `continuousAudio`). */
  | { type: 'output_silence'; durationMs: number }
  /**
   * The caller pressed a key: on the phone call the provider carries (`source: 'provider'`, e.g. a SIP call), or
   * on a line the app carries and reports with `receiveDtmf` (`source: 'line'`, e.g. `@parley/twilio`).
   */
  | { type: 'dtmf'; digit: DtmfDigit; source: 'provider' | 'line' }
  /** The first audio of a message: it starts playing (one per message, before its first `audio`). */
  | { type: 'audio_started'; responseId: string; itemId: string }
  /** A chunk of assistant audio: PCM16, 24 kHz, mono. Play it in order. */
  | { type: 'audio'; responseId: string; itemId: string; data: Uint8Array }
  /** The assistant message `itemId` has no more audio. */
  | { type: 'audio_done'; responseId: string; itemId: string }
  /**
   * Stop local playback of this response now: it was interrupted or cut by a guardrail. `itemId` is the message
   * the listener was hearing and `heardMs` how much of its audio they had heard (whole ms).
   */
  | { type: 'audio_interrupted'; responseId: string; itemId?: string; heardMs?: number }
  /** Transcript of assistant audio. */
  | { type: 'transcript_delta'; responseId: string; itemId: string; delta: string }
  /** Assistant text (text-only output). */
  | { type: 'text_delta'; responseId: string; itemId: string; delta: string }
  /** An item entered the session's history. */
  | { type: 'history_added'; item: RealtimeHistoryItem }
  /** A history item changed (its text completed, its status or output changed); `item` is the new snapshot. */
  | { type: 'history_updated'; item: RealtimeHistoryItem }
  /** An item left the session's history (deleted on the provider). */
  | { type: 'history_removed'; itemId: string }
  /** A realtime output guardrail tripped on a response's transcript; that response was stopped. */
  | {
      type: 'guardrail_tripped';
      responseId: string;
      agent: Agent<TContext>;
      /** The first guardrail that tripped. */
      guardrailName: string;
      outputInfo?: unknown;
      /** Every guardrail that tripped in the same check, in order (the first is `guardrailName`). */
      guardrails: readonly { name: string; outputInfo?: unknown }[];
      /** The text the guardrail judged. */
      text: string;
    }
  /** Something failed. The session goes on unless a `connection_status` event says otherwise. */
  | {
      type: 'error';
      source: RealtimeErrorSource;
      /** The provider's code for `source: 'provider'`, otherwise the Parley error's code. */
      code: string;
      message: string;
      /** The underlying error, for failures raised inside the session. */
      error?: unknown;
      /**
       * The response request this error is about: one the provider refused (`source: 'provider'`), one that was not
       * started within `responseTimeoutMs` (`response_timeout`) or could not be sent (`source: 'session'`).
       */
      clientRequestId?: string;
      /** `true` when the provider says the connection cannot be used any more. */
      fatal?: boolean;
    }
  /**
   * The provider's original event, as it sent it (only with the `rawEvents: true` session option), ahead of
   * what the session makes of it. Its shape is the provider's: see the adapter's documentation.
   */
  | { type: 'raw_event'; provider: string; event: unknown }
  /** The session chose a fallback (e.g. a capability the provider does not declare). */
  | {
      type: 'warning';
      code: string;
      message: string;
      /** The conversation item the warning is about (e.g. a message that stays in the provider's context). */
      itemId?: string;
    };

/** The `type` names of {@link RealtimeSessionEvent}. */
export type RealtimeSessionEventType = RealtimeSessionEvent['type'];

/** The event of one `type`. */
export type RealtimeSessionEventOf<T extends RealtimeSessionEventType, TContext = unknown> = Extract<
  RealtimeSessionEvent<TContext>,
  { type: T }
>;
