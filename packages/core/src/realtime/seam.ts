import type { JsonSchema, ToolChoice } from '../model.js';
import type { RealtimeAudioFormat } from './audio.js';
import type { RealtimeCapabilities } from './capabilities.js';

/** The version of the realtime model interface this release of `@parley/core` implements. */
export const REALTIME_SPECIFICATION_VERSION = 'parley.realtime.v1' as const;

/** A function the realtime model may call. */
export interface RealtimeToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** How the provider detects turns in user audio; `null` turns detection off (push-to-talk). */
export interface TurnDetectionConfig {
  type: 'server_vad' | 'semantic_vad';
  /** Start a response automatically when the user stops speaking. Default `true`. */
  createResponse?: boolean;
  /** Cancel the active response when the user starts speaking. Default `true`. */
  interruptResponse?: boolean;
  threshold?: number;
  prefixPaddingMs?: number;
  silenceDurationMs?: number;
}

/** The provider-neutral session configuration. Fields left out keep their current value. */
export interface RealtimeSessionConfig {
  instructions?: string;
  tools?: RealtimeToolDefinition[];
  toolChoice?: ToolChoice;
  /** `['audio']` (the default: audio with a transcript) or `['text']`. */
  outputModalities?: ('text' | 'audio')[];
  voice?: string;
  turnDetection?: TurnDetectionConfig | null;
  /** User-audio transcription; `null` turns it off. */
  inputTranscription?: { model?: string; language?: string } | null;
  /** The encoding of the user audio the app appends. Default `pcm16`. */
  inputAudioFormat?: RealtimeAudioFormat;
  /**
   * The encoding of the model's audio: `audio` events carry it, and the session counts played and truncated
   * milliseconds by its byte rate. Default `pcm16`. Set it in the session's connect configuration.
   */
  outputAudioFormat?: RealtimeAudioFormat;
  /** Provider-specific options, merged into the provider's own session object. */
  providerData?: Record<string, unknown>;
}

/** A content part of a realtime message item. */
export type RealtimeContentPart =
  | { type: 'text'; text: string }
  | { type: 'audio'; transcript?: string; audio?: Uint8Array };

/** A conversation item as the seam sees it. */
export type RealtimeItem =
  | {
      type: 'message';
      itemId: string;
      role: 'user' | 'assistant' | 'system';
      content: RealtimeContentPart[];
      status?: 'in_progress' | 'completed' | 'incomplete';
    }
  | { type: 'function_call'; itemId: string; callId: string; name: string; arguments: string }
  | { type: 'function_call_output'; itemId: string; callId: string; output: string };

/** An item to create; the provider assigns `itemId` when it is left out. */
export type RealtimeItemInput = RealtimeItem extends infer T
  ? T extends { itemId: string }
    ? Omit<T, 'itemId'> & { itemId?: string }
    : never
  : never;

/** Parameters of one response request. */
export interface CreateResponseCommand {
  type: 'createResponse';
  /** Chosen by the session; the provider echoes it on `response_started` (and on an `error` refusing it). */
  clientRequestId: string;
  /** `'default'`: the reply joins the conversation. `'none'`: out of band, nothing is added to it. */
  conversation: 'default' | 'none';
  instructions?: string;
  tools?: RealtimeToolDefinition[];
  toolChoice?: ToolChoice;
  outputModalities?: ('text' | 'audio')[];
  /** Extra string pairs the provider echoes back; the session's own keys are reserved. */
  metadata?: Record<string, string>;
}

/**
 * What an appended context means to the model: a standing `instruction` (a rule from now on), a silent `thought`
 * (informs later speech, never said by itself) or `commentary` (something to say, in the model's own words).
 */
export type ContextAppendKind = 'instruction' | 'thought' | 'commentary';

/** Adds text to the model's context at the current point of its timeline (providers with `contextAppends`). */
export interface AppendContextCommand {
  type: 'appendContext';
  kind: ContextAppendKind;
  text: string;
  /** The delegation this answers, if any. */
  delegationId?: string;
  /** Chosen by the session; the provider echoes it on `context_appended` (and on an `error` refusing it). */
  clientRequestId: string;
}

/** The closed set of commands a session sends to a connection. */
export type RealtimeCommand =
  | { type: 'updateSession'; config: RealtimeSessionConfig }
  | { type: 'appendInputAudio'; audio: Uint8Array }
  | { type: 'commitInputAudio' }
  | { type: 'clearInputAudio' }
  | { type: 'createItem'; item: RealtimeItemInput; previousItemId?: string }
  | { type: 'deleteItem'; itemId: string }
  /** Cut an assistant message's audio at `audioEndMs` (whole milliseconds). */
  | { type: 'truncateItem'; itemId: string; contentIndex: number; audioEndMs: number }
  | CreateResponseCommand
  /** Cancel a response; without `responseId`, the active default-conversation response. */
  | { type: 'cancelResponse'; responseId?: string }
  /** Adds a function call's output to the conversation; does not start a response by itself. */
  | { type: 'sendToolOutput'; callId: string; output: string }
  | AppendContextCommand;

/** How a response ended. */
export type RealtimeResponseStatus = 'completed' | 'cancelled' | 'incomplete' | 'failed';

/** The closed set of normalized events a connection emits. */
export type RealtimeEvent =
  | { type: 'connection_status'; status: 'connected' | 'disconnected'; reason?: string; code?: number }
  | {
      type: 'response_started';
      responseId: string;
      /** The `clientRequestId` of the request that created it; absent for provider-initiated responses. */
      clientRequestId?: string;
      conversation: 'default' | 'none';
    }
  | {
      type: 'response_done';
      responseId: string;
      status: RealtimeResponseStatus;
      conversation: 'default' | 'none';
      clientRequestId?: string;
      usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
      /** Why it ended, when not `completed` (e.g. `client_cancelled`, `turn_detected`). */
      reason?: string;
    }
  | { type: 'message_started'; responseId: string; itemId: string; outputIndex: number }
  | { type: 'message_done'; responseId: string; itemId: string; item: RealtimeItem }
  | { type: 'text_delta'; responseId: string; itemId: string; delta: string }
  /** PCM16 24 kHz mono. The session may keep the buffer; a provider must not reuse it. */
  | { type: 'audio_delta'; responseId: string; itemId: string; audio: Uint8Array }
  | { type: 'audio_done'; responseId: string; itemId: string }
  | { type: 'transcript_delta'; responseId: string; itemId: string; delta: string }
  | { type: 'transcript_done'; responseId: string; itemId: string; transcript: string }
  | {
      type: 'function_call';
      /** Absent when the provider gives none; the session then starts a response after each output. */
      responseId?: string;
      itemId: string;
      callId: string;
      name: string;
      arguments: string;
    }
  | { type: 'input_speech_started'; itemId?: string; audioStartMs?: number }
  | { type: 'input_speech_stopped'; itemId?: string; audioEndMs?: number }
  | { type: 'input_audio_committed'; itemId: string }
  | { type: 'input_transcription'; itemId: string; text: string; final: boolean }
  /** An item entered the provider's conversation (user messages, tool outputs, created items). */
  | { type: 'item_added'; item: RealtimeItem; previousItemId?: string | null }
  | { type: 'item_deleted'; itemId: string }
  | { type: 'item_truncated'; itemId: string; audioEndMs: number }
  /**
   * The voice model handed work to someone else (providers with `delegation`). There is no task text: the request
   * is what was said up to `offsetMs` on the provider's timeline. `target: 'app'` must be answered with
   * `appendContext` carrying `delegationId`; `'provider'` runs on the provider's own backend, whose function calls
   * arrive as `function_call` events.
   */
  | { type: 'delegation_requested'; delegationId: string; offsetMs: number; target: 'app' | 'provider' }
  /** An `appendContext` reached the model, at this span of the provider's timeline (proof of injection). */
  | {
      type: 'context_appended';
      kind: ContextAppendKind;
      startMs: number;
      endMs: number;
      clientRequestId?: string;
    }
  /** The continuous output track carried silence between responses (providers with `continuousAudio`). */
  | { type: 'output_silence'; durationMs: number }
  /** Billed audio so far (cumulative), and how full the model's context is (0–1), when the provider reports them. */
  | { type: 'usage_updated'; audioSeconds: number; contextWindowRatio?: number }
  | {
      type: 'error';
      /** The provider's error code, e.g. `conversation_already_has_active_response`. */
      code: string;
      message: string;
      /** The `clientRequestId` of the response request this error refuses, when it refuses one. */
      clientRequestId?: string;
      /** The command type this error answers, when the provider says. */
      commandType?: RealtimeCommand['type'];
      /** `true` when the connection cannot be used any more. */
      fatal?: boolean;
    };

/** The type names of {@link RealtimeEvent}. */
export type RealtimeEventType = RealtimeEvent['type'];

/** Options of {@link RealtimeModel.connect}. */
export interface RealtimeConnectOptions {
  /** The initial session configuration, applied before `connect` resolves. */
  config: RealtimeSessionConfig;
  signal?: AbortSignal;
}

/**
 * One live connection. `send` never throws for provider-side problems: those arrive as `error` events.
 * It throws a `UserError` only when the connection is already closed.
 */
export interface RealtimeConnection {
  readonly status: 'open' | 'closed';
  /**
   * When the provider will end this connection's session (wall-clock epoch milliseconds), if it says so. The
   * session reads it once `connect` resolved and recycles the connection between turns shortly before.
   */
  readonly expiresAt?: number;
  /**
   * The session configuration the provider confirmed (its effective turn detection included), when it reports
   * one. The session decides barge-in from it rather than from what the app asked.
   */
  readonly confirmedConfig?: Readonly<RealtimeSessionConfig>;
  send(command: RealtimeCommand): void;
  /** Subscribes to events; returns the function that unsubscribes. */
  onEvent(listener: (event: RealtimeEvent) => void): () => void;
  /** Closes the connection; resolves when it is closed. Idempotent. */
  close(): Promise<void>;
}

/** A realtime provider: a factory of live connections. */
export interface RealtimeModel {
  readonly specificationVersion: typeof REALTIME_SPECIFICATION_VERSION;
  /** A short provider name, e.g. `openai`, `azure`, `mock`. */
  readonly provider: string;
  readonly capabilities: RealtimeCapabilities;
  connect(options: RealtimeConnectOptions): Promise<RealtimeConnection>;
}
