/**
 * The GPT-Live event catalogue (see `openai-live-protocol.md` §4): every client and server event of the primary
 * WebSocket and the sideband, one type each (Decisions evaluation events are not modelled; readers tolerate them
 * like any unknown type). Config and item payloads are typed in the forms Parley writes. `event_id` on client events is optional; the service echoes it as
 * `client_event_id` on the ack or in `error.client_event_id`. Server events carry `event_id`, except the two audio
 * streams (`session.output_audio.delta` and the sideband's reflected `session.input_audio.append`).
 */
import type {
  LiveCloseReason,
  LiveSessionConfig,
  LiveSessionResource,
  LiveSessionUpdateConfig,
  LiveUsage,
} from './live-wire-session.js';

/** What every GPT-Live client event may carry. */
export type LiveClientEventBase = { event_id?: string | null };

/** The three kinds of context append: a standing rule, a silent thought, speakable commentary. */
export type LiveAppendKind = 'instructions' | 'thinking' | 'commentary';

/** An item the client adds to the Responses backend's input (any Responses input item; these two Parley writes). */
export type LiveBackendInputItem =
  | { type: 'function_call_output'; call_id: string; output: string; id?: string | null }
  | {
      type?: 'message';
      role: 'user' | 'developer' | 'system' | 'assistant';
      content: string | { type: 'input_text'; text: string }[];
    };

/** A Decisions input message (text form). */
export type LiveDecisionMessage = {
  type?: 'message';
  role: 'user' | 'developer' | 'system';
  content: string | { type: 'input_text'; text: string }[];
};

export type LiveSessionStart = LiveClientEventBase & { type: 'session.start'; session: LiveSessionConfig };
export type LiveSessionUpdate = LiveClientEventBase & {
  type: 'session.update';
  session: LiveSessionUpdateConfig;
};
export type LiveInputAudioAppend = LiveClientEventBase & {
  type: 'session.input_audio.append';
  audio: string;
};
export type LiveInputAudioMute = LiveClientEventBase & { type: 'session.input_audio.mute' };
export type LiveInputAudioUnmute = LiveClientEventBase & { type: 'session.input_audio.unmute' };
export type LiveFixturePlay = LiveClientEventBase & {
  type: 'session.output_audio.fixture.play';
  audio: string;
};
export type LiveContextAppend = LiveClientEventBase & {
  type: `session.${LiveAppendKind}.append`;
  content: string;
  /** Required key: the delegation this answers, or `null`. */
  delegation_id: string | null;
};
export type LiveDecisionCreate = { type: 'decision.create'; event_id: string };
export type LiveDecisionItemCreate = LiveClientEventBase & {
  type: 'decision.item.create';
  item: Record<string, unknown>;
};
export type LiveDecisionItemDelete = LiveClientEventBase & { type: 'decision.item.delete'; item_id: string };
export type LiveResponseItemCreate = LiveClientEventBase & {
  type: 'response.item.create';
  item: LiveBackendInputItem;
};
export type LiveResponseCreate = LiveClientEventBase & { type: 'response.create' };
export type LiveDtmfSend = LiveClientEventBase & { type: 'transport.dtmf.send'; event: string };
export type LiveSessionClose = LiveClientEventBase & { type: 'session.close' };

/** Every client event of the primary WebSocket and the sideband. */
export type LiveClientEvent =
  | LiveSessionStart
  | LiveSessionUpdate
  | LiveInputAudioAppend
  | LiveInputAudioMute
  | LiveInputAudioUnmute
  | LiveFixturePlay
  | LiveContextAppend
  | LiveDecisionCreate
  | LiveDecisionItemCreate
  | LiveDecisionItemDelete
  | LiveResponseItemCreate
  | LiveResponseCreate
  | LiveDtmfSend
  | LiveSessionClose;

/** What every client of a session may send, in this order: context appends, Decisions, backend input, close. */
const CONTEXT_AND_CONTROL_EVENTS = [
  'session.instructions.append',
  'session.thinking.append',
  'session.commentary.append',
  'decision.create',
  'decision.item.create',
  'decision.item.delete',
  'response.item.create',
  'response.create',
  'session.close',
] as const;

/** Client event types the primary WebSocket accepts. */
export const LIVE_PRIMARY_CLIENT_EVENTS = [
  'session.start',
  'session.update',
  'session.input_audio.append',
  'session.input_audio.mute',
  'session.input_audio.unmute',
  'session.output_audio.fixture.play',
  ...CONTEXT_AND_CONTROL_EVENTS,
] as const;

/** Client event types a sideband accepts (no start, no audio; DTMF for SIP calls). */
export const LIVE_SIDEBAND_CLIENT_EVENTS = [
  'session.update',
  'session.input_audio.mute',
  'session.input_audio.unmute',
  'session.output_audio.fixture.play',
  'transport.dtmf.send',
  ...CONTEXT_AND_CONTROL_EVENTS,
] as const;

/**
 * Client event types a WebRTC data channel may carry (what `session.client.data_channel.allowed_client_events` can
 * allow): no start (the HTTP request starts the session), no audio (it is on the media track), no fixture, no DTMF.
 */
export const LIVE_DATA_CHANNEL_CLIENT_EVENTS = [
  'session.update',
  'session.input_audio.mute',
  'session.input_audio.unmute',
  ...CONTEXT_AND_CONTROL_EVENTS,
] as const;

/** The fields every GPT-Live server event carries. */
export type LiveServerEventBase = { event_id: string; client_event_id?: string };
/** Where on the session's timeline (ms of input audio) an event's span lies. */
export type LiveTimelineSpan = { start_ms: number; end_ms: number };

export type LiveSessionStarted = LiveServerEventBase & {
  type: 'session.started';
  session: LiveSessionResource;
};
export type LiveSessionUpdated = LiveServerEventBase & {
  type: 'session.updated';
  session: LiveSessionResource;
};
export type LiveInputAudioMuted = LiveServerEventBase & { type: 'session.input_audio.muted' };
export type LiveInputAudioUnmuted = LiveServerEventBase & { type: 'session.input_audio.unmuted' };
export type LiveFixturePlaying = LiveServerEventBase & { type: 'session.output_audio.fixture.playing' };
export type LiveFixturePlayed = LiveServerEventBase & { type: 'session.output_audio.fixture.played' };
/** The timeline reached the end of an appended context: proof of injection, not of audibility. */
export type LiveContextAppended = LiveServerEventBase &
  LiveTimelineSpan & { type: `session.${LiveAppendKind}.appended` };
/** Output audio. Primary WebSocket: session format, no timestamps. Sideband: PCM16 24 kHz with its span. */
export type LiveOutputAudioDelta = {
  type: 'session.output_audio.delta';
  delta: string;
  start_ms?: number;
  end_ms?: number;
};
/** Sideband only: the primary's input audio as received (before mute), PCM16 24 kHz. */
export type LiveInputAudioReflection = { type: 'session.input_audio.append'; audio: string };
export type LiveTranscriptDelta = LiveServerEventBase &
  LiveTimelineSpan & {
    type: 'session.input_transcript.delta' | 'session.output_transcript.delta';
    delta: string;
  };
export type LiveDelegationTarget = 'client' | 'responses' | 'decisions';
/** The voice model delegated work. Metadata only: there is no task text. */
export type LiveDelegationCreated = LiveServerEventBase & {
  type: 'session.delegation.created';
  offset_ms: number;
  delegation: { id: string; type: 'delegation'; target: LiveDelegationTarget; response_id?: string };
};
/** One streaming event of the Responses backend, wrapped with the delegation it belongs to. */
export type LiveResponseEvent = LiveServerEventBase & {
  type: 'response.event';
  delegation_id?: string | null;
  event: LiveBackendStreamEvent;
};
export type LiveDecisionItemCreated = LiveServerEventBase & {
  type: 'decision.item.created';
  item: LiveDecisionMessage & { id: string };
};
export type LiveDecisionItemDeleted = LiveServerEventBase & {
  type: 'decision.item.deleted';
  item_id: string;
};
export type LiveUsageUpdated = LiveServerEventBase & {
  type: 'session.usage.updated';
  usage: LiveUsage;
  context_window?: { usage_ratio: number };
};
export type LiveSessionClosed = LiveServerEventBase & {
  type: 'session.closed';
  reason: LiveCloseReason;
  session: LiveSessionResource;
  usage: LiveUsage;
};
export type LiveErrorEvent = LiveServerEventBase & {
  type: 'error';
  error: { type: string; code: string; message: string; param?: string; client_event_id?: string };
};
export type LiveInfoEvent = LiveServerEventBase & { type: 'info'; code: string; message: string };
export type LiveTransportEvent =
  | { type: 'transport.dtmf.received'; event_id: string; event: string }
  | (LiveServerEventBase & { type: 'transport.dtmf.sent' | 'transport.dtmf.send'; event: string })
  | { type: 'transport.ringing' | 'transport.answered'; event_id: string; session_id: string }
  | {
      type: 'transport.failed';
      event_id: string;
      session_id: string;
      error: { type: 'call_error'; code: string; message: string; param?: string };
    };

/** Every server event of the primary WebSocket and the sideband. */
export type LiveServerEvent =
  | LiveSessionStarted
  | LiveSessionUpdated
  | LiveInputAudioMuted
  | LiveInputAudioUnmuted
  | LiveFixturePlaying
  | LiveFixturePlayed
  | LiveContextAppended
  | LiveOutputAudioDelta
  | LiveInputAudioReflection
  | LiveTranscriptDelta
  | LiveDelegationCreated
  | LiveResponseEvent
  | LiveDecisionItemCreated
  | LiveDecisionItemDeleted
  | LiveUsageUpdated
  | LiveSessionClosed
  | LiveErrorEvent
  | LiveInfoEvent
  | LiveTransportEvent;

/** A backend output item as the stream reports it. */
export type LiveBackendItem =
  | {
      type: 'function_call';
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: 'in_progress' | 'completed' | 'incomplete';
    }
  | {
      type: 'message';
      id: string;
      role: 'assistant';
      status: 'in_progress' | 'completed' | 'incomplete';
      content: { type: 'output_text'; text: string; annotations: unknown[] }[];
    }
  | { type: 'web_search_call' | 'reasoning'; id: string; status?: string; [field: string]: unknown };

/** A backend response snapshot. Lifecycle snapshots clear `output` (collect items from `output_item.*`). */
export type LiveBackendResponse = {
  id: string;
  object?: 'response';
  status: 'in_progress' | 'completed' | 'failed' | 'incomplete' | 'cancelled';
  output: LiveBackendItem[];
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  [field: string]: unknown;
};

/** The nested Responses streaming events Parley reads; others are tolerated. */
export type LiveBackendStreamEvent =
  | {
      type: 'response.created' | 'response.in_progress' | 'response.completed';
      response: LiveBackendResponse;
    }
  | { type: 'response.failed' | 'response.incomplete'; response: LiveBackendResponse }
  | {
      type: 'response.output_item.added' | 'response.output_item.done';
      output_index: number;
      item: LiveBackendItem;
    }
  | { type: 'response.function_call_arguments.delta'; item_id: string; output_index: number; delta: string }
  | {
      type: 'response.function_call_arguments.done';
      item_id: string;
      output_index: number;
      name?: string;
      arguments: string;
    }
  | {
      type: 'response.output_text.delta';
      item_id: string;
      output_index: number;
      content_index: number;
      delta: string;
    }
  | {
      type: 'response.output_text.done';
      item_id: string;
      output_index: number;
      content_index: number;
      text: string;
    }
  | { type: string; [field: string]: unknown };

/** Server event type names the official client reserves for itself; a server must never send them. */
export const LIVE_RESERVED_EVENT_NAMES = [
  'open',
  'close',
  'raw',
  'event',
  'reconnecting',
  'reconnected',
] as const;
