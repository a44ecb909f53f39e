/**
 * The beta (preview) Realtime dialect, as the legacy Azure OpenAI path `/openai/realtime?api-version=…` speaks it:
 * a flat session object, assistant content parts `text`/`audio`, `modalities`, and the beta server event names
 * (see the protocol reference, "Beta → GA name/shape map"). One map, read both ways: the adapter writes GA events
 * through {@link toBetaClientEvent}; the simulator reads them back with {@link fromBetaClientEvent} and writes its
 * GA events through {@link toBetaServerEvent}.
 */
import { isPlainObject, type JsonObject } from './deep-merge.js';

/** Fields of a beta `session.update` session. */
export const BETA_SESSION_KEYS: readonly string[] = [
  'modalities',
  'instructions',
  'voice',
  'speed',
  'input_audio_format',
  'output_audio_format',
  'input_audio_transcription',
  'input_audio_noise_reduction',
  'turn_detection',
  'tools',
  'tool_choice',
  'temperature',
  'max_response_output_tokens',
];

/** Fields of a beta `response.create` response. */
export const BETA_RESPONSE_KEYS: readonly string[] = [
  'conversation',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'modalities',
  'voice',
  'output_audio_format',
  'temperature',
  'max_response_output_tokens',
  'metadata',
];

const FORMAT_TO_BETA: Record<string, string> = {
  'audio/pcm': 'pcm16',
  'audio/pcmu': 'g711_ulaw',
  'audio/pcma': 'g711_alaw',
};

function formatToBeta(format: unknown): unknown {
  return isPlainObject(format) && typeof format.type === 'string'
    ? (FORMAT_TO_BETA[format.type] ?? format.type)
    : format;
}

function formatFromBeta(format: unknown): unknown {
  if (format === 'pcm16') return { type: 'audio/pcm', rate: 24000 };
  if (format === 'g711_ulaw') return { type: 'audio/pcmu' };
  if (format === 'g711_alaw') return { type: 'audio/pcma' };
  return format;
}

/** GA `output_modalities` (`['audio']` or `['text']`) as beta `modalities` (audio always came with text). */
function modalitiesToBeta(modalities: unknown): unknown {
  return Array.isArray(modalities) && modalities.includes('audio') ? ['text', 'audio'] : modalities;
}

function modalitiesFromBeta(modalities: unknown): unknown {
  return Array.isArray(modalities) && modalities.includes('audio') ? ['audio'] : modalities;
}

function set(target: JsonObject, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value;
}

/** A GA session object as the flat beta session (identity fields kept, GA-only fields left out). */
export function toBetaSession(session: unknown): JsonObject {
  if (!isPlainObject(session)) return {};
  const audio = isPlainObject(session.audio) ? session.audio : {};
  const input = isPlainObject(audio.input) ? audio.input : {};
  const output = isPlainObject(audio.output) ? audio.output : {};
  const beta: JsonObject = {};
  for (const key of ['id', 'object', 'model', 'expires_at', 'instructions', 'tools', 'tool_choice']) {
    set(beta, key, session[key]);
  }
  set(beta, 'modalities', modalitiesToBeta(session.output_modalities));
  set(beta, 'voice', output.voice);
  set(beta, 'speed', output.speed);
  set(beta, 'input_audio_format', formatToBeta(input.format));
  set(beta, 'output_audio_format', formatToBeta(output.format));
  set(beta, 'input_audio_transcription', input.transcription);
  set(beta, 'input_audio_noise_reduction', input.noise_reduction);
  set(beta, 'turn_detection', input.turn_detection);
  set(beta, 'max_response_output_tokens', session.max_output_tokens);
  return beta;
}

/** A flat beta session as the GA session object (`type: 'realtime'`). */
export function fromBetaSession(beta: JsonObject): JsonObject {
  const input: JsonObject = {};
  const output: JsonObject = {};
  set(input, 'format', formatFromBeta(beta.input_audio_format));
  set(input, 'transcription', beta.input_audio_transcription);
  set(input, 'noise_reduction', beta.input_audio_noise_reduction);
  set(input, 'turn_detection', beta.turn_detection);
  set(output, 'format', formatFromBeta(beta.output_audio_format));
  set(output, 'voice', beta.voice);
  set(output, 'speed', beta.speed);
  const session: JsonObject = { type: 'realtime' };
  for (const key of ['instructions', 'tools', 'tool_choice']) set(session, key, beta[key]);
  set(session, 'output_modalities', modalitiesFromBeta(beta.modalities));
  set(session, 'max_output_tokens', beta.max_response_output_tokens);
  const audio: JsonObject = {};
  if (Object.keys(input).length > 0) audio.input = input;
  if (Object.keys(output).length > 0) audio.output = output;
  if (Object.keys(audio).length > 0) session.audio = audio;
  return session;
}

const ASSISTANT_PART_TO_BETA: Record<string, string> = { output_text: 'text', output_audio: 'audio' };
const ASSISTANT_PART_FROM_BETA: Record<string, string> = { text: 'output_text', audio: 'output_audio' };

function mapAssistantParts(item: unknown, names: Record<string, string>): unknown {
  if (!isPlainObject(item) || item.type !== 'message' || item.role !== 'assistant') return item;
  if (!Array.isArray(item.content)) return item;
  return {
    ...item,
    content: item.content.map((part) =>
      isPlainObject(part) && typeof part.type === 'string' && names[part.type] !== undefined
        ? { ...part, type: names[part.type] }
        : part,
    ),
  };
}

/** A GA item in the beta dialect (assistant content parts `text` / `audio`). */
export function toBetaItem(item: unknown): unknown {
  return mapAssistantParts(item, ASSISTANT_PART_TO_BETA);
}

/** A beta item as a GA item (assistant content parts `output_text` / `output_audio`). */
export function fromBetaItem(item: unknown): unknown {
  return mapAssistantParts(item, ASSISTANT_PART_FROM_BETA);
}

/**
 * Response fields in the beta dialect: the request params of `response.create` (items under `input`) or the response
 * object of `response.created` / `response.done` (items under `output`).
 */
function responseToBeta(response: JsonObject, itemsKey: 'input' | 'output'): JsonObject {
  const { output_modalities, audio, max_output_tokens, ...rest } = response;
  const beta: JsonObject = { ...rest };
  set(beta, 'modalities', modalitiesToBeta(output_modalities));
  const output = isPlainObject(audio) && isPlainObject(audio.output) ? audio.output : {};
  set(beta, 'voice', output.voice);
  set(beta, 'output_audio_format', formatToBeta(output.format));
  set(beta, 'max_response_output_tokens', max_output_tokens);
  const items = response[itemsKey];
  if (Array.isArray(items)) beta[itemsKey] = items.map(toBetaItem);
  return beta;
}

function responseParamsFromBeta(beta: JsonObject): JsonObject {
  const { modalities, voice, output_audio_format, max_response_output_tokens, input, ...rest } = beta;
  const response: JsonObject = { ...rest };
  set(response, 'output_modalities', modalitiesFromBeta(modalities));
  const output: JsonObject = {};
  set(output, 'voice', voice);
  set(output, 'format', formatFromBeta(output_audio_format));
  if (Object.keys(output).length > 0) response.audio = { output };
  set(response, 'max_output_tokens', max_response_output_tokens);
  if (Array.isArray(input)) response.input = input.map(fromBetaItem);
  return response;
}

/** A GA client event as the beta dialect writes it; events both dialects spell alike are returned as they are. */
export function toBetaClientEvent<T extends { type: string }>(event: T): T {
  const e = event as T & JsonObject;
  switch (e.type) {
    case 'session.update':
      return { ...e, session: toBetaSession(e.session) };
    case 'conversation.item.create':
      return { ...e, item: toBetaItem(e.item) };
    case 'response.create':
      return isPlainObject(e.response) ? { ...e, response: responseToBeta(e.response, 'input') } : e;
    default:
      return event;
  }
}

/** A beta client event as its GA equivalent (the session of `session.update` gets `type: 'realtime'`). */
export function fromBetaClientEvent(event: JsonObject): JsonObject {
  switch (event.type) {
    case 'session.update':
      return isPlainObject(event.session) ? { ...event, session: fromBetaSession(event.session) } : event;
    case 'conversation.item.create':
      return { ...event, item: fromBetaItem(event.item) };
    case 'response.create':
      return isPlainObject(event.response)
        ? { ...event, response: responseParamsFromBeta(event.response) }
        : event;
    default:
      return event;
  }
}

const SERVER_RENAMES: readonly [string, string][] = [
  ['response.output_text.', 'response.text.'],
  ['response.output_audio_transcript.', 'response.audio_transcript.'],
  ['response.output_audio.', 'response.audio.'],
];

/**
 * A GA server event as the beta service sent it; `undefined` for events the beta protocol did not have
 * (`conversation.item.done`).
 */
export function toBetaServerEvent(event: JsonObject): JsonObject | undefined {
  const type = String(event.type);
  if (type === 'conversation.item.done') return undefined;
  if (type === 'conversation.item.added') {
    return { ...event, type: 'conversation.item.created', item: toBetaItem(event.item) };
  }
  if (type === 'session.created' || type === 'session.updated') {
    return { ...event, session: toBetaSession(event.session) };
  }
  if (type === 'response.created' || type === 'response.done') {
    return isPlainObject(event.response)
      ? { ...event, response: responseToBeta(event.response, 'output') }
      : event;
  }
  if ('item' in event) return { ...event, item: toBetaItem(event.item) };
  for (const [ga, beta] of SERVER_RENAMES) {
    if (type.startsWith(ga)) return { ...event, type: beta + type.slice(ga.length) };
  }
  return event;
}
