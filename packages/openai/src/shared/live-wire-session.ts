/**
 * GPT-Live session shapes (see `openai-live-protocol.md` §3): what `session.start` / `session.update` take and what
 * `session.started` / `session.updated` / `session.closed` report. The service refuses unknown fields, so writers
 * send only these; readers tolerate more.
 */

/** One format for input and output on the primary WebSocket. */
export type LiveAudioFormat =
  | { type: 'audio/pcm'; rate: 16000 | 24000 }
  | { type: 'audio/pcmu'; rate: number }
  | { type: 'audio/pcma'; rate: number };

/** A built-in voice name, a custom voice `{ id }`, or another name the service knows. */
export type LiveVoice = string | { id: string };

/** A function tool of the Responses backend. */
export type LiveFunctionTool = {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
};

/** A hosted tool of the Responses backend (run by the service; the client only sees its items). */
export type LiveHostedTool = { type: 'web_search' } | { type: 'file_search' };

/** A Decisions question (Parley writes the text forms only). */
export type LiveDecisionQuestion =
  | { type: 'predicate'; instructions: string; name?: string }
  | {
      type: 'choice';
      instructions: string;
      choices: { value: string | boolean; description?: string }[];
      name?: string;
    }
  | { type: 'score'; instructions: string; levels: { label: string; description?: string }[]; name?: string };

/** A Decisions trigger evaluated on transcript events. */
export type LiveDecisionTrigger = {
  type: 'decisions';
  event_type: 'session.input_transcript.delta' | 'session.output_transcript.delta';
  decisions: { questions: LiveDecisionQuestion[] };
};

/** `delegation.responses` at start (`model` required) and in updates (all optional). */
export type LiveResponsesBackend = {
  model: string;
  instructions?: string | null;
  tools?: (LiveFunctionTool | LiveHostedTool)[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; name: string };
  parallel_tool_calls?: boolean | null;
  max_output_tokens?: number | null;
  reasoning?: {
    effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | null;
    summary?: 'concise' | 'detailed' | 'auto' | null;
  } | null;
  service_tier?: 'auto' | 'default' | 'fast_tier_temp_pilot' | 'flex' | 'priority' | 'ultrafast' | null;
  text?: { verbosity?: 'low' | 'medium' | 'high' } | null;
};

/** Who does delegated work: the app, a hosted Responses model, or the Decisions API. */
export type LiveDelegationConfig =
  | { type: 'client'; acknowledgement_delay_ms?: number }
  | { type: 'responses'; responses: LiveResponsesBackend; acknowledgement_delay_ms?: number }
  | {
      type: 'decisions';
      decisions: { model: string; questions: LiveDecisionQuestion[] };
      acknowledgement_delay_ms?: number;
    };

/** Text-only startup history: one text part per message. */
export type LiveInitialItem =
  | {
      type?: 'message';
      role: 'developer' | 'user';
      content: { type?: 'input_text'; text: string }[];
      id?: string | null;
      status?: 'completed' | 'incomplete' | null;
    }
  | {
      type?: 'message';
      role: 'assistant';
      content: ({ type?: 'text'; text: string } | { type: 'output_text'; text: string })[];
      id?: string | null;
      status?: 'completed' | 'incomplete' | null;
    };

/** `session.start.session` on the primary WebSocket (strict). */
export type LiveSessionConfig = {
  model: string;
  instructions?: string | null;
  audio?: { format?: LiveAudioFormat; output?: { voice?: LiveVoice } };
  delegation?: LiveDelegationConfig | null;
  input?: LiveInitialItem[];
  client?: {
    data_channel: {
      allowed_client_events?: 'all' | string[];
      allowed_server_events?: 'all' | { type: string; response_event?: string }[];
    };
  };
  store?: boolean;
  triggers?: LiveDecisionTrigger[];
};

/** `session.update.session`: only delegation settings (same `type`) and triggers can change. */
export type LiveSessionUpdateConfig = {
  delegation?:
    | { type: 'client'; acknowledgement_delay_ms?: number }
    | { type: 'responses'; responses?: Partial<LiveResponsesBackend>; acknowledgement_delay_ms?: number }
    | {
        type: 'decisions';
        decisions?: { model?: string; questions?: LiveDecisionQuestion[] };
        acknowledgement_delay_ms?: number;
      }
    | null;
  triggers?: LiveDecisionTrigger[];
};

/** The resolved session the service reports (defaults filled in). `status` is always `active`. */
export type LiveSessionResource = {
  id: string;
  expires_at: number;
  model: string;
  status: 'active';
  instructions?: string | null;
  audio?: { format?: LiveAudioFormat; output?: { voice?: LiveVoice } };
  delegation?: LiveDelegationConfig | null;
  input?: LiveInitialItem[];
  client?: LiveSessionConfig['client'];
  store?: boolean;
  triggers?: LiveDecisionTrigger[];
};

/** Why a session ended. */
export type LiveCloseReason = 'close_requested' | 'expired' | 'content' | 'remote_hangup' | 'connection_lost';

/** Cumulative billed audio seconds (silence included). */
export type LiveUsage = { seconds: number };
