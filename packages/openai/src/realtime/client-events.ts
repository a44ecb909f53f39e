import { type RealtimeCommand, type RealtimeItemInput, UserError } from '@parley/core';
import { encodeBase64 } from '../shared/base64.js';
import type { WireContentPart, WireItem, WireResponseCreateParams } from '../shared/realtime-wire.js';
import type { WireClientEvent } from '../shared/realtime-wire-events.js';
import { toWireTool, toWireToolChoice } from './session-config.js';

/** The `response.metadata` key that carries the session's `clientRequestId`. */
export const CLIENT_REQUEST_ID_KEY = 'parley_request_id';

/** A client event as sent on the wire. */
export type ClientEvent = WireClientEvent;

/**
 * The event id of a command other than `createResponse`: `parley.<commandType>.<n>`, so an `error` echoing it
 * names the command without any per-event bookkeeping.
 */
export function commandEventId(type: RealtimeCommand['type'], n: number): string {
  return `parley.${type}.${n}`;
}

const COMMAND_TYPES: ReadonlySet<string> = new Set<RealtimeCommand['type']>([
  'updateSession',
  'appendInputAudio',
  'commitInputAudio',
  'createItem',
  'deleteItem',
  'truncateItem',
  'createResponse',
  'cancelResponse',
  'sendToolOutput',
  'clearOutputAudio',
  'sendHostedToolApproval',
]);

/** The command type encoded in an event id made by {@link commandEventId}. */
export function commandTypeOfEventId(eventId: string): RealtimeCommand['type'] | undefined {
  if (!eventId.startsWith('parley.')) return undefined;
  const type = eventId.slice(7, eventId.lastIndexOf('.'));
  return COMMAND_TYPES.has(type) ? (type as RealtimeCommand['type']) : undefined;
}

/** A seam item as a GA conversation item. Assistant audio becomes text: clients cannot create assistant audio. */
export function toWireItem(item: RealtimeItemInput): WireItem {
  const id = item.itemId === undefined ? {} : { id: item.itemId };
  switch (item.type) {
    case 'function_call':
      return {
        type: 'function_call',
        ...id,
        call_id: item.callId,
        name: item.name,
        arguments: item.arguments,
      };
    case 'function_call_output':
      return { type: 'function_call_output', ...id, call_id: item.callId, output: item.output };
    case 'message': {
      const content: WireContentPart[] = item.content.map((part): WireContentPart => {
        if (item.role === 'assistant') {
          return { type: 'output_text', text: part.type === 'text' ? part.text : (part.transcript ?? '') };
        }
        if (part.type === 'text') return { type: 'input_text', text: part.text };
        if (item.role === 'system') return { type: 'input_text', text: part.transcript ?? '' };
        return {
          type: 'input_audio',
          ...(part.audio !== undefined && { audio: encodeBase64(part.audio) }),
          ...(part.transcript !== undefined && { transcript: part.transcript }),
        };
      });
      return { type: 'message', ...id, role: item.role, content };
    }
    default:
      throw new UserError(`Unknown item type "${(item as { type: string }).type}".`, {
        code: 'invalid_command',
      });
  }
}

/**
 * The wire event for a command other than `updateSession` (which needs the merged session, see the connection).
 * `eventId` is put on the event; for `createResponse` it is the `clientRequestId`.
 */
export function toClientEvent(
  command: Exclude<RealtimeCommand, { type: 'updateSession' }>,
  eventId: string,
): ClientEvent {
  switch (command.type) {
    case 'appendInputAudio':
      return { type: 'input_audio_buffer.append', event_id: eventId, audio: encodeBase64(command.audio) };
    case 'commitInputAudio':
      return { type: 'input_audio_buffer.commit', event_id: eventId };
    case 'createItem':
      return {
        type: 'conversation.item.create',
        event_id: eventId,
        item: toWireItem(command.item),
      };
    case 'deleteItem':
      return { type: 'conversation.item.delete', event_id: eventId, item_id: command.itemId };
    case 'truncateItem': {
      if (!Number.isFinite(command.heardMs)) {
        throw new UserError('truncateItem needs a finite heardMs.', {
          code: 'invalid_command',
        });
      }
      return {
        type: 'conversation.item.truncate',
        event_id: eventId,
        item_id: command.itemId,
        // Parley truncates a message's audio, which is always its first content part.
        content_index: 0,
        audio_end_ms: Math.max(0, Math.floor(command.heardMs)),
      };
    }
    case 'createResponse': {
      const response: WireResponseCreateParams = {
        metadata: { [CLIENT_REQUEST_ID_KEY]: command.clientRequestId },
      };
      if (command.ephemeral) response.conversation = 'none';
      if (command.instructions !== undefined) response.instructions = command.instructions;
      if (command.tools !== undefined) response.tools = command.tools.map(toWireTool);
      if (command.toolChoice !== undefined) response.tool_choice = toWireToolChoice(command.toolChoice);
      return { type: 'response.create', event_id: eventId, response };
    }
    case 'cancelResponse':
      return {
        type: 'response.cancel',
        event_id: eventId,
        ...(command.responseId !== undefined && { response_id: command.responseId }),
      };
    case 'clearOutputAudio':
      return { type: 'output_audio_buffer.clear', event_id: eventId };
    case 'sendToolOutput':
      return {
        type: 'conversation.item.create',
        event_id: eventId,
        item: { type: 'function_call_output', call_id: command.callId, output: command.output },
      };
    case 'sendHostedToolApproval':
      return {
        type: 'conversation.item.create',
        event_id: eventId,
        item: {
          type: 'mcp_approval_response',
          approval_request_id: command.approvalId,
          approve: command.approved,
          ...(command.reason !== undefined && { reason: command.reason }),
        },
      };
    case 'sendDtmf':
      throw new UserError('The OpenAI Realtime API has no message that presses a key on a call.', {
        code: 'capability_not_supported',
      });
    default:
      throw new UserError(`Unknown realtime command "${(command as { type: string }).type}".`, {
        code: 'invalid_command',
      });
  }
}
