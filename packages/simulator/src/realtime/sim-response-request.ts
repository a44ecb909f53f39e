import type { WireAudioFormat, WireTool, WireToolChoice } from '@parley/openai/wire';
import { isPlainObject } from '@parley/openai/wire';
import type { IdGenerator } from '../shared/ids.js';
import { invalidType, invalidValue, unknownParameter } from '../shared/sim-errors.js';
import type { SimulatorConversation, StoredItem } from './sim-conversation.js';
import { checkItem } from './sim-items.js';
import type { ResponseParams } from './sim-response.js';
import {
  checkFormat,
  checkMaxOutputTokens,
  checkOutputModalities,
  checkToolChoice,
  checkTools,
  checkVoice,
} from './sim-session.js';

const RESPONSE_KEYS = [
  'conversation',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'output_modalities',
  'metadata',
  'max_output_tokens',
  'audio',
  'prompt',
];

/**
 * Validates the `response` object of a `response.create` event the way the service does, and returns
 * the response's parameters: `base` (the session's) overridden by what the request sets. Throws a
 * `SimulatorServiceError` for the first problem.
 */
export function parseResponseRequest(
  raw: unknown,
  base: ResponseParams,
  context: { conversation: SimulatorConversation; ids: IdGenerator },
): ResponseParams {
  if (!isPlainObject(raw)) throw invalidType('response', 'an object');
  for (const key of Object.keys(raw))
    if (!RESPONSE_KEYS.includes(key)) throw unknownParameter(`response.${key}`);
  const conversation = raw.conversation ?? 'auto';
  if (conversation !== 'auto' && conversation !== 'none') {
    throw invalidValue(
      'response.conversation',
      `Invalid value: '${String(conversation)}'. Supported values are: 'auto' and 'none'.`,
    );
  }
  const params: ResponseParams = { ...base, conversation: conversation === 'none' ? 'none' : 'default' };
  if (raw.instructions !== undefined) {
    if (typeof raw.instructions !== 'string') throw invalidType('response.instructions', 'a string');
    params.instructions = raw.instructions;
  }
  if (raw.tools !== undefined) {
    checkTools(raw.tools, 'response.tools');
    params.tools = structuredClone(raw.tools) as WireTool[];
  }
  if (raw.tool_choice !== undefined) {
    checkToolChoice(raw.tool_choice, 'response.tool_choice');
    params.toolChoice = structuredClone(raw.tool_choice) as WireToolChoice;
  }
  if (raw.output_modalities !== undefined) {
    checkOutputModalities(raw.output_modalities, 'response.output_modalities');
    params.outputModalities = [...(raw.output_modalities as ('text' | 'audio')[])];
  }
  if (raw.max_output_tokens !== undefined) {
    checkMaxOutputTokens(raw.max_output_tokens, 'response.max_output_tokens');
    params.maxOutputTokens = raw.max_output_tokens as number | 'inf';
  }
  if (raw.audio !== undefined) {
    const audio = raw.audio;
    if (!isPlainObject(audio)) throw invalidType('response.audio', 'an object');
    for (const key of Object.keys(audio))
      if (key !== 'output') throw unknownParameter(`response.audio.${key}`);
    if (audio.output !== undefined) {
      const output = audio.output;
      if (!isPlainObject(output)) throw invalidType('response.audio.output', 'an object');
      for (const key of Object.keys(output)) {
        if (key !== 'format' && key !== 'voice') throw unknownParameter(`response.audio.output.${key}`);
      }
      if (output.format !== undefined) {
        checkFormat(output.format, 'response.audio.output.format');
        const format = output.format as WireAudioFormat;
        params.outputFormat =
          format.type === 'audio/pcm' ? { type: 'audio/pcm', rate: 24000 } : { type: format.type };
      }
      if (output.voice !== undefined) {
        checkVoice(output.voice, 'response.audio.output.voice');
        params.voice = structuredClone(output.voice) as string | { id: string };
      }
    }
  }
  if (raw.metadata !== undefined && raw.metadata !== null) params.metadata = checkMetadata(raw.metadata);
  if (raw.input !== undefined) params.input = resolveInput(raw.input, context);
  return params;
}

function checkMetadata(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) throw invalidType('response.metadata', 'an object');
  const entries = Object.entries(value);
  if (entries.length > 16) {
    throw invalidValue('response.metadata', 'Invalid value: metadata can have at most 16 keys.');
  }
  for (const [key, v] of entries) {
    if (key.length > 64)
      throw invalidValue('response.metadata', `Invalid value: metadata key '${key}' is too long.`);
    if (typeof v !== 'string' || v.length > 512) {
      throw invalidValue(
        `response.metadata.${key}`,
        'Invalid value: metadata values are strings of at most 512 characters.',
      );
    }
  }
  return { ...(value as Record<string, string>) };
}

function resolveInput(
  value: unknown,
  context: { conversation: SimulatorConversation; ids: IdGenerator },
): StoredItem[] {
  if (!Array.isArray(value)) throw invalidType('response.input', 'an array');
  return value.map((raw, i): StoredItem => {
    const path = `response.input[${i}]`;
    if (isPlainObject(raw) && raw.type === 'item_reference') {
      const id = raw.id;
      const item = typeof id === 'string' ? context.conversation.get(id) : undefined;
      if (!item)
        throw invalidValue(`${path}.id`, `Invalid value: the item with id '${String(id)}' does not exist.`);
      return structuredClone(item);
    }
    const item = checkItem(raw, path);
    return { ...item, id: item.id ?? context.ids.next('item') } as StoredItem;
  });
}
