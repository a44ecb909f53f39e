import type { WireError, WireItem, WireResponseCreateParams, WireSession } from './realtime-wire.js';

/**
 * The GA Realtime wire catalogue (protocol reference §2 and §3): every client and server event type with the fields
 * it carries. The adapter writes client events and reads server events through it; the simulator reads client
 * events and writes server events through it. Both stay independent in behaviour: this file holds names and shapes
 * only, no logic. Readers must still tolerate extra fields and unknown events.
 */

/** Fields of each GA client event, by type (every client event may also carry `event_id`). */
export interface WireClientEventFields {
  'session.update': { session: WireSession };
  'input_audio_buffer.append': { audio: string };
  'input_audio_buffer.commit': Record<never, never>;
  'input_audio_buffer.clear': Record<never, never>;
  'conversation.item.create': { item: WireItem; previous_item_id?: string | null };
  'conversation.item.retrieve': { item_id: string };
  'conversation.item.truncate': { item_id: string; content_index: number; audio_end_ms: number };
  'conversation.item.delete': { item_id: string };
  'response.create': { response?: WireResponseCreateParams };
  'response.cancel': { response_id?: string };
  /** WebRTC and SIP calls only: the service stops playing (and truncates at what it played). */
  'output_audio_buffer.clear': Record<never, never>;
}

/** A GA client event type. */
export type WireClientEventType = keyof WireClientEventFields;

/** A GA client event of type `K` (default: any). */
export type WireClientEvent<K extends WireClientEventType = WireClientEventType> = {
  [T in K]: { type: T; event_id?: string } & WireClientEventFields[T];
}[K];

/** Every GA client event type, in the reference's order. */
export const WIRE_CLIENT_EVENT_TYPES = Object.keys({
  'session.update': true,
  'input_audio_buffer.append': true,
  'input_audio_buffer.commit': true,
  'input_audio_buffer.clear': true,
  'conversation.item.create': true,
  'conversation.item.retrieve': true,
  'conversation.item.truncate': true,
  'conversation.item.delete': true,
  'response.create': true,
  'response.cancel': true,
  'output_audio_buffer.clear': true,
} satisfies Record<WireClientEventType, true>) as readonly WireClientEventType[];

/** The ids a response's content events carry. */
export interface WireContentIds {
  response_id: string;
  item_id: string;
  output_index: number;
  content_index: number;
}

/** A content part as `response.content_part.*` carries it (`audio` / `text`, not the item's `output_*`). */
export type WireResponsePart = { type: 'audio'; transcript: string } | { type: 'text'; text: string };

/** `rate_limits.updated` entries. */
export interface WireRateLimit {
  name: 'requests' | 'tokens';
  limit: number;
  remaining: number;
  reset_seconds: number;
}

/** The response object (`realtime.response`) of `response.created` / `response.done` (§3.2). */
export interface WireResponse {
  object: 'realtime.response';
  id: string;
  status: 'in_progress' | 'completed' | 'cancelled' | 'failed' | 'incomplete';
  status_details: {
    type: 'completed' | 'cancelled' | 'failed' | 'incomplete';
    reason?: string;
    error?: { type: string; code?: string | null; message?: string };
  } | null;
  output: WireItem[];
  conversation_id: string | null;
  output_modalities: ('text' | 'audio')[];
  max_output_tokens: number | 'inf';
  audio: {
    output: {
      format: NonNullable<NonNullable<WireSession['audio']>['output']>['format'];
      voice: string | { id: string };
    };
  };
  usage: WireUsage | null;
  metadata: Record<string, string> | null;
}

/** `response.done.response.usage`. */
export interface WireUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_token_details: {
    text_tokens: number;
    audio_tokens: number;
    image_tokens: number;
    cached_tokens: number;
    cached_tokens_details: { text_tokens: number; audio_tokens: number; image_tokens: number };
  };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

/** Usage of an input transcription. */
export type WireTranscriptionUsage =
  | { type: 'duration'; seconds: number }
  | { type: 'tokens'; input_tokens: number; output_tokens: number; total_tokens: number };

/** Fields of each GA server event, by type (every server event also carries `event_id`). */
export interface WireServerEventFields {
  error: { error: WireError };
  'session.created': { session: WireSession };
  'session.updated': { session: WireSession };
  'conversation.item.added': { item: WireItem; previous_item_id: string | null };
  'conversation.item.done': { item: WireItem; previous_item_id: string | null };
  'conversation.item.retrieved': { item: WireItem };
  'conversation.item.truncated': { item_id: string; content_index: number; audio_end_ms: number };
  'conversation.item.deleted': { item_id: string };
  'conversation.item.input_audio_transcription.delta': {
    item_id: string;
    content_index: number;
    delta: string;
  };
  'conversation.item.input_audio_transcription.completed': {
    item_id: string;
    content_index: number;
    transcript: string;
    usage: WireTranscriptionUsage;
  };
  'conversation.item.input_audio_transcription.failed': {
    item_id: string;
    content_index: number;
    error: { type?: string; code?: string; message?: string; param?: string };
  };
  'input_audio_buffer.committed': { item_id: string; previous_item_id: string | null };
  'input_audio_buffer.cleared': Record<never, never>;
  'input_audio_buffer.speech_started': { audio_start_ms: number; item_id: string };
  'input_audio_buffer.speech_stopped': { audio_end_ms: number; item_id: string };
  'input_audio_buffer.timeout_triggered': { audio_start_ms: number; audio_end_ms: number; item_id: string };
  'response.created': { response: WireResponse };
  'response.done': { response: WireResponse };
  'response.output_item.added': { response_id: string; output_index: number; item: WireItem };
  'response.output_item.done': { response_id: string; output_index: number; item: WireItem };
  'response.content_part.added': WireContentIds & { part: WireResponsePart };
  'response.content_part.done': WireContentIds & { part: WireResponsePart };
  'response.output_text.delta': WireContentIds & { delta: string };
  'response.output_text.done': WireContentIds & { text: string };
  'response.output_audio.delta': WireContentIds & { delta: string };
  'response.output_audio.done': WireContentIds;
  'response.output_audio_transcript.delta': WireContentIds & { delta: string };
  'response.output_audio_transcript.done': WireContentIds & { transcript: string };
  'response.function_call_arguments.delta': {
    response_id: string;
    item_id: string;
    output_index: number;
    call_id: string;
    delta: string;
  };
  'response.function_call_arguments.done': {
    response_id: string;
    item_id: string;
    output_index: number;
    call_id: string;
    name: string;
    arguments: string;
  };
  'response.mcp_call_arguments.delta': {
    response_id: string;
    item_id: string;
    output_index: number;
    delta: string;
  };
  'response.mcp_call_arguments.done': {
    response_id: string;
    item_id: string;
    output_index: number;
    arguments: string;
  };
  'response.mcp_call.in_progress': { item_id: string; output_index: number };
  'response.mcp_call.completed': { item_id: string; output_index: number };
  'response.mcp_call.failed': { item_id: string; output_index: number };
  'mcp_list_tools.in_progress': { item_id: string };
  'mcp_list_tools.completed': { item_id: string };
  'mcp_list_tools.failed': { item_id: string };
  'rate_limits.updated': { rate_limits: WireRateLimit[] };
  /** WebRTC and SIP calls only: the service began playing a response's audio to the listener. */
  'output_audio_buffer.started': { response_id: string };
  /** WebRTC and SIP calls only: the service played all the audio it had. */
  'output_audio_buffer.stopped': { response_id: string };
  /** WebRTC and SIP calls only: the audio not yet played was dropped (`output_audio_buffer.clear`, or barge-in). */
  'output_audio_buffer.cleared': { response_id: string };
}

/** A GA server event type. */
export type WireServerEventType = keyof WireServerEventFields;

/** A GA server event of type `K` (default: any); `event_id` is optional for writers that add it when sending. */
export type WireServerEvent<K extends WireServerEventType = WireServerEventType> = {
  [T in K]: { type: T; event_id?: string } & WireServerEventFields[T];
}[K];

/** Every GA server event type the catalogue describes. */
export const WIRE_SERVER_EVENT_TYPES = Object.keys({
  error: true,
  'session.created': true,
  'session.updated': true,
  'conversation.item.added': true,
  'conversation.item.done': true,
  'conversation.item.retrieved': true,
  'conversation.item.truncated': true,
  'conversation.item.deleted': true,
  'conversation.item.input_audio_transcription.delta': true,
  'conversation.item.input_audio_transcription.completed': true,
  'conversation.item.input_audio_transcription.failed': true,
  'input_audio_buffer.committed': true,
  'input_audio_buffer.cleared': true,
  'input_audio_buffer.speech_started': true,
  'input_audio_buffer.speech_stopped': true,
  'input_audio_buffer.timeout_triggered': true,
  'response.created': true,
  'response.done': true,
  'response.output_item.added': true,
  'response.output_item.done': true,
  'response.content_part.added': true,
  'response.content_part.done': true,
  'response.output_text.delta': true,
  'response.output_text.done': true,
  'response.output_audio.delta': true,
  'response.output_audio.done': true,
  'response.output_audio_transcript.delta': true,
  'response.output_audio_transcript.done': true,
  'response.function_call_arguments.delta': true,
  'response.function_call_arguments.done': true,
  'response.mcp_call_arguments.delta': true,
  'response.mcp_call_arguments.done': true,
  'response.mcp_call.in_progress': true,
  'response.mcp_call.completed': true,
  'response.mcp_call.failed': true,
  'mcp_list_tools.in_progress': true,
  'mcp_list_tools.completed': true,
  'mcp_list_tools.failed': true,
  'rate_limits.updated': true,
  'output_audio_buffer.started': true,
  'output_audio_buffer.stopped': true,
  'output_audio_buffer.cleared': true,
} satisfies Record<WireServerEventType, true>) as readonly WireServerEventType[];
