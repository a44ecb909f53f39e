import {
  BETA_RESPONSE_KEYS,
  BETA_SESSION_KEYS,
  fromBetaClientEvent,
  isPlainObject,
  type JsonObject,
  toBetaServerEvent,
} from '@parley/openai/wire';
import { invalidValue, unknownParameter } from '../shared/sim-errors.js';

/** Which protocol a simulated connection speaks: GA, or the beta (preview) dialect of the legacy Azure path. */
export type SimulatorDialect = 'ga' | 'beta';

function checkKeys(value: unknown, allowed: readonly string[], path: string): void {
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw unknownParameter(`${path}.${key}`);
  }
}

function checkAssistantParts(item: unknown, path: string): void {
  if (!isPlainObject(item) || item.role !== 'assistant' || !Array.isArray(item.content)) return;
  item.content.forEach((part, index) => {
    if (isPlainObject(part) && (part.type === 'output_text' || part.type === 'output_audio')) {
      throw invalidValue(
        `${path}.content[${index}].type`,
        `Invalid value: '${part.type}'. Supported values are: 'text' and 'audio'.`,
      );
    }
  });
}

/**
 * Reads a client event of the beta dialect as its GA equivalent, refusing GA-only shapes the way the preview service
 * did (a GA `session.type` or `audio` block is an unknown parameter; assistant parts must be `text` / `audio`).
 */
export function readBetaClientEvent(event: unknown): unknown {
  if (!isPlainObject(event)) return event;
  if (event.type === 'session.update') checkKeys(event.session, BETA_SESSION_KEYS, 'session');
  if (event.type === 'response.create') {
    checkKeys(event.response, BETA_RESPONSE_KEYS, 'response');
    const input = isPlainObject(event.response) ? event.response.input : undefined;
    if (Array.isArray(input)) {
      for (const [i, item] of input.entries()) checkAssistantParts(item, `response.input[${i}]`);
    }
  }
  if (event.type === 'conversation.item.create') checkAssistantParts(event.item, 'item');
  return fromBetaClientEvent(event);
}

/** A GA server event as the beta service sends it; `undefined` when the beta protocol had no such event. */
export function writeBetaServerEvent(event: JsonObject): JsonObject | undefined {
  return toBetaServerEvent(event);
}
