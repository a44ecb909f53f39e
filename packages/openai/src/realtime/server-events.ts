import type {
  RealtimeContentPart,
  RealtimeEvent,
  RealtimeItem,
  RealtimeResponseEndReason,
  RealtimeResponseStatus,
  RealtimeUsage,
} from '@parley/core';
import { RecentIds } from '@parley/core/internal';
import { ENDED_RESPONSES_LIMIT } from '../constants.js';
import { decodeBase64 } from '../shared/base64.js';
import { isPlainObject, type JsonObject, stringField } from '../shared/deep-merge.js';
import type { WireServerEventType } from '../shared/realtime-wire-events.js';
import { CLIENT_REQUEST_ID_KEY, commandTypeOfEventId } from './client-events.js';
import { toHostedToolEvent } from './hosted-tool-events.js';

/** Beta (preview) server event names the adapter still reads besides the GA ones. */
type BetaServerEventType =
  | 'response.text.delta'
  | 'response.audio.delta'
  | 'response.audio.done'
  | 'response.audio_transcript.delta'
  | 'response.audio_transcript.done'
  | 'conversation.item.created';

/** Server error codes after which the service closes the socket (`session_expired` has its own seam event). */
const FATAL_CODES = new Set(['beta_api_shape_disabled']);

/** `status_details.reason` values the seam has a name for, with that name. */
const END_REASONS: ReadonlyMap<string, RealtimeResponseEndReason> = new Map<
  string,
  RealtimeResponseEndReason
>([
  ['client_cancelled', 'client_cancelled'],
  ['turn_detected', 'user_turn'],
  ['max_output_tokens', 'max_output_tokens'],
  ['content_filter', 'content_filter'],
]);

interface ResponseInfo {
  ephemeral: boolean;
  clientRequestId?: string;
  /** Function call items already reported, so `arguments.done` and `output_item.done` report once. */
  reportedCalls: Set<string>;
  /** name / call_id of function call items, from `output_item.added`. */
  calls: Map<string, { name?: string; callId?: string }>;
  /** Items this response produced (they are reported by message/function-call events, not `item_added`). */
  items: Set<string>;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A GA (or beta) content part as a seam content part; `undefined` for parts the seam has no form for. */
function toContentPart(part: unknown): RealtimeContentPart | undefined {
  if (!isPlainObject(part)) return undefined;
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: stringField(part.text) ?? '' };
    case 'input_audio':
    case 'output_audio':
    case 'audio': {
      const transcript = stringField(part.transcript);
      return transcript === undefined ? { type: 'audio' } : { type: 'audio', transcript };
    }
    default:
      return undefined;
  }
}

/** A GA (or beta) conversation item as a seam item; `undefined` for item types the seam does not model (MCP). */
export function toRealtimeItem(item: unknown): RealtimeItem | undefined {
  if (!isPlainObject(item)) return undefined;
  const itemId = stringField(item.id);
  if (itemId === undefined) return undefined;
  switch (item.type) {
    case 'message': {
      const role = item.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'system') return undefined;
      const content: RealtimeContentPart[] = [];
      if (Array.isArray(item.content)) {
        for (const part of item.content) {
          const converted = toContentPart(part);
          if (converted) content.push(converted);
        }
      }
      const status = item.status;
      return {
        type: 'message',
        itemId,
        role,
        content,
        ...((status === 'completed' || status === 'incomplete' || status === 'in_progress') && { status }),
      };
    }
    case 'function_call':
      return {
        type: 'function_call',
        itemId,
        callId: stringField(item.call_id) ?? '',
        name: stringField(item.name) ?? '',
        arguments: stringField(item.arguments) ?? '',
      };
    case 'function_call_output':
      return {
        type: 'function_call_output',
        itemId,
        callId: stringField(item.call_id) ?? '',
        output: stringField(item.output) ?? '',
      };
    default:
      return undefined;
  }
}

function toStatus(value: unknown): RealtimeResponseStatus {
  return value === 'cancelled' || value === 'incomplete' || value === 'failed' ? value : 'completed';
}

/** The service's playback events (WebRTC and SIP calls) as the seam names them. */
const OUTPUT_AUDIO_EVENTS = {
  'output_audio_buffer.started': 'output_audio_started',
  'output_audio_buffer.stopped': 'output_audio_stopped',
  'output_audio_buffer.cleared': 'output_audio_cleared',
} as const;

/** The service's refusal of a `response.create` that collides with the active response. */
const ACTIVE_RESPONSE_CODE = 'conversation_already_has_active_response';

/** A function call item is ready to run once it is `completed` (or says nothing of its status). */
function isCompletedCall(item: unknown): boolean {
  const status = (item as JsonObject).status;
  return status === undefined || status === 'completed';
}

/** A response's `usage` with its token details; `undefined` without input and output counts. */
function toUsage(value: unknown): RealtimeUsage | undefined {
  if (!isPlainObject(value)) return undefined;
  const inputTokens = num(value.input_tokens);
  const outputTokens = num(value.output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const usage: RealtimeUsage = {
    inputTokens,
    outputTokens,
    totalTokens: num(value.total_tokens) ?? inputTokens + outputTokens,
  };
  const input = isPlainObject(value.input_token_details) ? value.input_token_details : undefined;
  if (input) {
    const text = num(input.text_tokens);
    const audio = num(input.audio_tokens);
    const cached = num(input.cached_tokens);
    usage.inputTokenDetails = {
      ...(text !== undefined && { textTokens: text }),
      ...(audio !== undefined && { audioTokens: audio }),
      ...(cached !== undefined && { cachedTokens: cached }),
    };
  }
  const output = isPlainObject(value.output_token_details) ? value.output_token_details : undefined;
  if (output) {
    const text = num(output.text_tokens);
    const audio = num(output.audio_tokens);
    usage.outputTokenDetails = {
      ...(text !== undefined && { textTokens: text }),
      ...(audio !== undefined && { audioTokens: audio }),
    };
  }
  return usage;
}

/** What the normalizer tells its owner besides seam events. */
export interface NormalizerHooks {
  emit(event: RealtimeEvent): void;
  /** Control events the connection itself consumes (`session.created`, `session.updated`, `error`). */
  onControl?(type: 'session.created' | 'session.updated', event: JsonObject): void;
  /** An `error` echoed the `event_id` of a client event (called before the error event is emitted). */
  onRejected?(eventId: string): void;
}

/**
 * Turns server frames (GA names, tolerating beta names, both content-part spellings, unknown events and extra
 * fields) into seam events. Stateful: it remembers which request created which response, and which function calls
 * it already reported.
 */
export class ServerEventNormalizer {
  readonly #hooks: NormalizerHooks;
  /** clientRequestId → whether it asked for an ephemeral response, until `response.created` (or an error) answers it. */
  /** Created on first use: an idle session holds none. */
  #pendingRequests: Map<string, boolean> | undefined;
  /** Created on first use: an idle session holds none. */
  #responses: Map<string, ResponseInfo> | undefined;
  /** Ids of items a response is producing, until their `conversation.item.added` (or the response's end). */
  /** Created on first use: an idle session holds none. */
  #modelItems: Set<string> | undefined;
  /** Responses that ended: a late `response.created` of one is reported but not tracked again. */
  readonly #ended = new RecentIds(ENDED_RESPONSES_LIMIT);
  /** Hosted MCP tool listings already reported (a listing may be announced by its response and its conversation). */
  readonly #listings = new RecentIds(ENDED_RESPONSES_LIMIT);

  constructor(hooks: NormalizerHooks) {
    this.#hooks = hooks;
  }

  /** Records a `response.create` so its `response.created` (or `error`) maps back to `clientRequestId`. */
  trackRequest(clientRequestId: string, ephemeral: boolean): void {
    this.#pendingRequests ??= new Map<string, boolean>();
    this.#pendingRequests.set(clientRequestId, ephemeral);
  }

  /** Parses one text frame (a delta frame only where the fast path of `delta-frame.ts` could not read it). */
  handleFrame(frame: string): void {
    let event: unknown;
    try {
      event = JSON.parse(frame);
    } catch {
      this.#malformed('a frame that is not JSON');
      return;
    }
    if (!isPlainObject(event) || typeof event.type !== 'string') {
      this.#malformed('an event without a string "type"');
      return;
    }
    this.handleEvent(event as JsonObject & { type: string });
  }

  #malformed(what: string): void {
    this.#hooks.emit({
      type: 'error',
      code: 'malformed_server_event',
      message: `The Realtime service sent ${what}; it was ignored.`,
    });
  }

  /** Handles one parsed server event. */
  handleEvent(event: JsonObject & { type: string }): void {
    const emit = this.#hooks.emit;
    // Every name handled below is a GA name of the wire catalogue or a beta name still read (the compiler checks).
    const type = event.type as WireServerEventType | BetaServerEventType;
    switch (type) {
      case 'session.created':
      case 'session.updated':
        this.#hooks.onControl?.(type, event);
        return;
      case 'error':
        this.#error(event);
        return;
      case 'response.created':
        this.#responseCreated(event);
        return;
      case 'response.done':
        this.#responseDone(event);
        return;
      case 'response.output_item.added':
        this.#outputItemAdded(event);
        return;
      case 'response.output_item.done':
        this.#outputItemDone(event);
        return;
      case 'response.function_call_arguments.done':
        this.#argumentsDone(event);
        return;
      case 'response.output_text.delta':
      case 'response.text.delta': {
        const ids = this.#deltaIds(event);
        const delta = stringField(event.delta);
        if (ids && delta !== undefined) emit({ type: 'text_delta', ...ids, delta });
        return;
      }
      case 'response.output_audio.delta':
      case 'response.audio.delta': {
        const ids = this.#deltaIds(event);
        const delta = stringField(event.delta);
        if (ids && delta !== undefined) emit({ type: 'audio_delta', ...ids, audio: decodeBase64(delta) });
        return;
      }
      case 'response.output_audio.done':
      case 'response.audio.done': {
        const ids = this.#deltaIds(event);
        if (ids) emit({ type: 'audio_done', ...ids });
        return;
      }
      case 'response.output_audio_transcript.delta':
      case 'response.audio_transcript.delta': {
        const ids = this.#deltaIds(event);
        const delta = stringField(event.delta);
        if (ids && delta !== undefined) emit({ type: 'transcript_delta', ...ids, delta });
        return;
      }
      case 'response.output_audio_transcript.done':
      case 'response.audio_transcript.done': {
        const ids = this.#deltaIds(event);
        if (ids) emit({ type: 'transcript_done', ...ids, transcript: stringField(event.transcript) ?? '' });
        return;
      }
      case 'conversation.item.added':
      case 'conversation.item.created': {
        const item = toRealtimeItem(event.item);
        if (!item) return;
        if (this.#modelItems?.delete(item.itemId)) return;
        const previous = event.previous_item_id;
        emit({
          type: 'item_added',
          item,
          ...((typeof previous === 'string' || previous === null) && { previousItemId: previous }),
        });
        return;
      }
      case 'conversation.item.done': {
        // A server's tool list, fetched when the session's tools name it (outside any response).
        if (isPlainObject(event.item) && event.item.type === 'mcp_list_tools')
          this.#hosted(undefined, event.item);
        return;
      }
      case 'conversation.item.deleted': {
        const itemId = stringField(event.item_id);
        if (itemId !== undefined) emit({ type: 'item_deleted', itemId });
        return;
      }
      case 'conversation.item.truncated': {
        const itemId = stringField(event.item_id);
        const heardMs = event.audio_end_ms;
        if (itemId !== undefined) {
          emit({
            type: 'item_truncated',
            itemId,
            ...(typeof heardMs === 'number' && Number.isFinite(heardMs) && { heardMs }),
          });
        }
        return;
      }
      case 'output_audio_buffer.started':
      case 'output_audio_buffer.stopped':
      case 'output_audio_buffer.cleared': {
        const responseId = stringField(event.response_id);
        emit({ type: OUTPUT_AUDIO_EVENTS[type], ...(responseId !== undefined && { responseId }) });
        return;
      }
      case 'input_audio_buffer.speech_started':
        emit({ type: 'input_speech_started' });
        return;
      case 'input_audio_buffer.speech_stopped':
        emit({ type: 'input_speech_stopped' });
        return;
      case 'input_audio_buffer.committed': {
        const itemId = stringField(event.item_id);
        if (itemId !== undefined) emit({ type: 'input_audio_committed', itemId });
        return;
      }
      case 'conversation.item.input_audio_transcription.delta': {
        const itemId = stringField(event.item_id);
        const delta = stringField(event.delta);
        if (itemId !== undefined && delta !== undefined) {
          emit({ type: 'input_transcription', itemId, text: delta, final: false });
        }
        return;
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const itemId = stringField(event.item_id);
        if (itemId !== undefined) {
          emit({
            type: 'input_transcription',
            itemId,
            text: stringField(event.transcript) ?? '',
            final: true,
          });
        }
        return;
      }
      case 'conversation.item.input_audio_transcription.failed': {
        const error = isPlainObject(event.error) ? event.error : {};
        emit({
          type: 'error',
          code: stringField(error.code) ?? 'input_transcription_failed',
          message:
            stringField(error.message) ??
            `Transcription of item ${stringField(event.item_id) ?? '?'} failed.`,
        });
        return;
      }
      default:
        // Unknown, informational or transport-specific events (rate_limits.updated, content_part.*, text done, the
        // MCP progress events: their items carry what the seam needs) carry nothing more.
        return;
    }
  }

  #deltaIds(event: JsonObject): { responseId: string; itemId: string } | undefined {
    const responseId = stringField(event.response_id);
    const itemId = stringField(event.item_id);
    return responseId !== undefined && itemId !== undefined ? { responseId, itemId } : undefined;
  }

  #error(event: JsonObject): void {
    const error = isPlainObject(event.error) ? event.error : {};
    const code = stringField(error.code) ?? stringField(error.type) ?? 'unknown_error';
    const message = stringField(error.message) ?? 'The Realtime service reported an error.';
    const eventId = stringField(error.event_id);
    let clientRequestId: string | undefined;
    let commandType: ReturnType<typeof commandTypeOfEventId>;
    if (eventId !== undefined) {
      this.#hooks.onRejected?.(eventId);
      if (this.#pendingRequests?.has(eventId)) {
        this.#pendingRequests?.delete(eventId);
        clientRequestId = eventId;
        commandType = 'createResponse';
      } else {
        commandType = commandTypeOfEventId(eventId);
      }
    } else if (code === ACTIVE_RESPONSE_CODE) {
      // A collision that names no request (the refused response.create carried no event_id): only a
      // default-conversation request collides, and they are answered in order: the oldest one still waiting is it.
      commandType = 'createResponse';
      clientRequestId = this.#oldestDefaultRequest();
      if (clientRequestId !== undefined) this.#pendingRequests?.delete(clientRequestId);
    }
    if (code === 'session_expired') {
      this.#hooks.emit({ type: 'session_expired', message });
      return;
    }
    this.#hooks.emit({
      type: 'error',
      code,
      message,
      ...(clientRequestId !== undefined && { clientRequestId }),
      ...(commandType !== undefined && { commandType }),
      ...(FATAL_CODES.has(code) && { fatal: true }),
    });
  }

  #oldestDefaultRequest(): string | undefined {
    for (const [id, ephemeral] of this.#pendingRequests ?? []) if (!ephemeral) return id;
    return undefined;
  }

  #responseCreated(event: JsonObject): void {
    const response = isPlainObject(event.response) ? event.response : undefined;
    const responseId = stringField(response?.id);
    if (!response || responseId === undefined) return;
    const metadata = isPlainObject(response.metadata) ? response.metadata : undefined;
    const clientRequestId = stringField(metadata?.[CLIENT_REQUEST_ID_KEY]);
    let ephemeral = response.conversation_id === null;
    if (clientRequestId !== undefined) {
      const requested = this.#pendingRequests?.get(clientRequestId);
      if (requested !== undefined) {
        ephemeral = requested;
        this.#pendingRequests?.delete(clientRequestId);
      }
    }
    // Reported all the same (the session decides what a late or repeated start means), but tracked only once, and
    // never for a response that already ended: nothing is kept for it.
    if (!this.#ended.has(responseId) && !this.#responses?.has(responseId)) {
      this.#responses ??= new Map<string, ResponseInfo>();
      this.#responses.set(responseId, {
        ephemeral,
        ...(clientRequestId !== undefined && { clientRequestId }),
        reportedCalls: new Set(),
        calls: new Map(),
        items: new Set(),
      });
    }
    this.#hooks.emit({
      type: 'response_started',
      responseId,
      ephemeral,
      ...(clientRequestId !== undefined && { clientRequestId }),
    });
  }

  #responseDone(event: JsonObject): void {
    const response = isPlainObject(event.response) ? event.response : undefined;
    const responseId = stringField(response?.id);
    if (!response || responseId === undefined) return;
    const info = this.#responses?.get(responseId);
    this.#responses?.delete(responseId);
    this.#ended.add(responseId);
    for (const itemId of info?.items ?? []) this.#modelItems?.delete(itemId);
    const metadata = isPlainObject(response.metadata) ? response.metadata : undefined;
    const clientRequestId = info?.clientRequestId ?? stringField(metadata?.[CLIENT_REQUEST_ID_KEY]);
    // Ended before it was reported created: its request is answered all the same.
    if (clientRequestId !== undefined) this.#pendingRequests?.delete(clientRequestId);
    const ephemeral = info?.ephemeral ?? response.conversation_id === null;
    const details = isPlainObject(response.status_details) ? response.status_details : undefined;
    const detailError = isPlainObject(details?.error) ? details.error : undefined;
    const detailReason = stringField(details?.reason);
    const errorCode = stringField(detailError?.code);
    const reason: RealtimeResponseEndReason | undefined =
      detailReason !== undefined && END_REASONS.has(detailReason)
        ? END_REASONS.get(detailReason)
        : errorCode !== undefined || response.status === 'failed'
          ? 'provider_error'
          : undefined;
    const usage = toUsage(response.usage);
    this.#hooks.emit({
      type: 'response_done',
      responseId,
      status: toStatus(response.status),
      ephemeral,
      ...(clientRequestId !== undefined && { clientRequestId }),
      ...(usage && { usage }),
      ...(reason !== undefined && { reason }),
      ...(errorCode !== undefined && { errorCode }),
    });
  }

  #outputItemAdded(event: JsonObject): void {
    const responseId = stringField(event.response_id);
    const item = isPlainObject(event.item) ? event.item : undefined;
    const itemId = stringField(item?.id);
    if (responseId === undefined || !item || itemId === undefined) return;
    // An item announced after its response ended is out of order: nothing is reported or kept for it.
    if (this.#ended.has(responseId)) return;
    this.#modelItems ??= new Set<string>();
    this.#modelItems.add(itemId);
    this.#responses?.get(responseId)?.items.add(itemId);
    if (item.type === 'mcp_call') {
      this.#hosted(responseId, item, 'in_progress');
    } else if (item.type === 'message') {
      this.#hooks.emit({ type: 'message_started', responseId, itemId });
    } else if (item.type === 'function_call') {
      this.#responses
        ?.get(responseId)
        ?.calls.set(itemId, { name: stringField(item.name), callId: stringField(item.call_id) });
    }
  }

  #outputItemDone(event: JsonObject): void {
    const responseId = stringField(event.response_id);
    if (
      isPlainObject(event.item) &&
      typeof event.item.type === 'string' &&
      event.item.type.startsWith('mcp_')
    ) {
      this.#hosted(responseId, event.item);
      return;
    }
    const item = toRealtimeItem(event.item);
    if (!item) return;
    if (responseId === undefined) {
      // A call must never vanish: without its response it runs as its own group (the session follows it up).
      if (item.type === 'function_call' && isCompletedCall(event.item)) {
        this.#reportCall(undefined, item.itemId, item.callId, item.name, item.arguments);
      }
      return;
    }
    if (item.type === 'message') {
      this.#hooks.emit({ type: 'message_done', responseId, itemId: item.itemId, item });
    } else if (item.type === 'function_call' && isCompletedCall(event.item)) {
      this.#reportCall(responseId, item.itemId, item.callId, item.name, item.arguments);
    }
  }

  /** A hosted MCP item (a call, an approval request, a tool list) as its seam event; each listing reported once. */
  #hosted(responseId: string | undefined, item: JsonObject, status?: 'in_progress'): void {
    const event = toHostedToolEvent(responseId, item, status);
    if (event === undefined) return;
    if (event.type === 'hosted_tool_call' && event.action.type === 'list_tools') {
      if (this.#listings.has(event.itemId)) return;
      this.#listings.add(event.itemId);
    }
    this.#hooks.emit(event);
  }

  #argumentsDone(event: JsonObject): void {
    const responseId = stringField(event.response_id);
    const itemId = stringField(event.item_id);
    const args = stringField(event.arguments);
    if (responseId === undefined || itemId === undefined || args === undefined) return;
    const known = this.#responses?.get(responseId)?.calls.get(itemId);
    const callId = stringField(event.call_id) ?? known?.callId;
    const name = stringField(event.name) ?? known?.name;
    // Without a name the call cannot be dispatched yet; output_item.done carries it.
    if (callId === undefined || name === undefined) return;
    this.#reportCall(responseId, itemId, callId, name, args);
  }

  #reportCall(
    responseId: string | undefined,
    itemId: string,
    callId: string,
    name: string,
    args: string,
  ): void {
    const info = responseId !== undefined ? this.#responses?.get(responseId) : undefined;
    if (info) {
      if (info.reportedCalls.has(itemId)) return;
      info.reportedCalls.add(itemId);
    }
    this.#hooks.emit({
      type: 'function_call',
      ...(responseId !== undefined && { responseId }),
      itemId,
      callId,
      name,
      arguments: args,
    });
  }
}
