import type { WireContentPart, WireItem } from '@parley/openai/wire';
import { isBase64, isPlainObject, type JsonObject } from '@parley/openai/wire';
import { invalidType, invalidValue, missingParameter, unknownParameter } from '../shared/sim-errors.js';

const ITEM_KEYS: Record<string, readonly string[]> = {
  message: ['id', 'type', 'object', 'status', 'role', 'content'],
  function_call: ['id', 'type', 'object', 'status', 'name', 'arguments', 'call_id'],
  function_call_output: ['id', 'type', 'object', 'status', 'call_id', 'output'],
  mcp_approval_response: ['id', 'type', 'object', 'approval_request_id', 'approve', 'reason'],
};

const PART_KEYS: Record<string, readonly string[]> = {
  input_text: ['type', 'text'],
  input_audio: ['type', 'audio', 'transcript'],
  input_image: ['type', 'image_url', 'detail'],
  output_text: ['type', 'text'],
};

const ALLOWED_PARTS: Record<string, readonly string[]> = {
  user: ['input_text', 'input_audio', 'input_image'],
  system: ['input_text'],
  assistant: ['output_text'],
};

function checkKeys(value: JsonObject, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw unknownParameter(`${path}.${key}`);
}

function requireString(value: JsonObject, key: string, path: string): string {
  const v = value[key];
  if (v === undefined) throw missingParameter(`${path}.${key}`);
  if (typeof v !== 'string') throw invalidType(`${path}.${key}`, 'a string');
  return v;
}

function checkPart(raw: unknown, role: string, path: string): WireContentPart {
  if (!isPlainObject(raw)) throw invalidType(path, 'an object');
  const type = raw.type;
  const allowed = ALLOWED_PARTS[role] ?? [];
  if (typeof type !== 'string' || !allowed.includes(type)) {
    throw invalidValue(
      `${path}.type`,
      `Invalid value: '${String(type)}'. Supported values are: ${allowed.map((t) => `'${t}'`).join(', ')}.`,
    );
  }
  checkKeys(raw, PART_KEYS[type] ?? ['type'], path);
  switch (type) {
    case 'input_text':
    case 'output_text':
      return { type, text: requireString(raw, 'text', path) };
    case 'input_audio': {
      const part: WireContentPart = { type: 'input_audio' };
      if (raw.audio !== undefined) {
        if (typeof raw.audio !== 'string' || !isBase64(raw.audio)) {
          throw invalidValue(`${path}.audio`, 'Invalid value: audio must be base64-encoded.');
        }
        part.audio = raw.audio;
      }
      if (raw.transcript !== undefined && raw.transcript !== null) {
        part.transcript = requireString(raw, 'transcript', path);
      }
      return part;
    }
    default:
      return { type: 'input_image', image_url: requireString(raw, 'image_url', path) };
  }
}

/** Validates a client-supplied conversation item (without assigning an id). */
export function checkItem(raw: unknown, path: string): WireItem {
  if (raw === undefined) throw missingParameter(path);
  if (!isPlainObject(raw)) throw invalidType(path, 'an object');
  const type = raw.type;
  const keys = typeof type === 'string' ? ITEM_KEYS[type] : undefined;
  if (!keys) {
    throw invalidValue(
      `${path}.type`,
      `Invalid value: '${String(type)}'. Supported values are: 'message', 'function_call', 'function_call_output', and 'mcp_approval_response'.`,
    );
  }
  checkKeys(raw, keys, path);
  if (raw.id !== undefined && (typeof raw.id !== 'string' || raw.id.length === 0 || raw.id.length > 32)) {
    throw invalidValue(
      `${path}.id`,
      `Invalid value: '${String(raw.id)}'. Expected a string of at most 32 characters.`,
    );
  }
  const id = raw.id === undefined ? {} : { id: raw.id as string };
  switch (type) {
    case 'message': {
      const role = raw.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'system') {
        throw invalidValue(
          `${path}.role`,
          `Invalid value: '${String(role)}'. Supported values are: 'user', 'assistant', and 'system'.`,
        );
      }
      if (!Array.isArray(raw.content)) throw missingParameter(`${path}.content`);
      const content = raw.content.map((part, i) => checkPart(part, role, `${path}.content[${i}]`));
      return { type: 'message', ...id, role, content };
    }
    case 'function_call': {
      const name = requireString(raw, 'name', path);
      const args = requireString(raw, 'arguments', path);
      const callId = raw.call_id === undefined ? {} : { call_id: requireString(raw, 'call_id', path) };
      return { type: 'function_call', ...id, name, arguments: args, ...callId };
    }
    case 'mcp_approval_response': {
      if (typeof raw.approve !== 'boolean') throw invalidType(`${path}.approve`, 'a boolean');
      const reason =
        raw.reason === undefined || raw.reason === null ? {} : { reason: requireString(raw, 'reason', path) };
      return {
        type: 'mcp_approval_response',
        ...id,
        approval_request_id: requireString(raw, 'approval_request_id', path),
        approve: raw.approve,
        ...reason,
      };
    }
    default:
      return {
        type: 'function_call_output',
        ...id,
        call_id: requireString(raw, 'call_id', path),
        output: requireString(raw, 'output', path),
      };
  }
}
