import type { WireAudioFormat, WireSession, WireTurnDetection } from '@parley/openai/wire';
import { deepMerge, isPlainObject, type JsonObject } from '@parley/openai/wire';
import {
  invalidType,
  invalidValue,
  missingParameter,
  SimulatorServiceError,
  unknownParameter,
} from '../shared/sim-errors.js';

const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'];
const SESSION_KEYS = new Set([
  'type',
  'model',
  'output_modalities',
  'instructions',
  'audio',
  'tools',
  'tool_choice',
  'max_output_tokens',
  'tracing',
  'truncation',
  'prompt',
  'include',
]);

/** The session object the service reports in `session.created` (GA defaults). */
export function defaultSession(id: string, model: string, expiresAt: number): WireSession {
  return {
    type: 'realtime',
    object: 'realtime.session',
    id,
    model,
    output_modalities: ['audio'],
    instructions: 'You are a helpful, witty, and friendly AI.',
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
    tracing: null,
    truncation: 'auto',
    prompt: null,
    expires_at: expiresAt,
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: {
          type: 'server_vad',
          threshold: 0.5,
          prefix_padding_ms: 300,
          silence_duration_ms: 200,
          idle_timeout_ms: null,
          create_response: true,
          interrupt_response: true,
        },
      },
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
    },
    include: null,
  };
}

/** The session a transcription session (`?intent=transcription`) starts with. */
export function defaultTranscriptionSession(id: string, expiresAt: number): WireSession {
  return {
    type: 'transcription',
    object: 'realtime.transcription_session',
    id,
    expires_at: expiresAt,
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: { type: 'server_vad' },
      },
    },
    include: null,
  };
}

function checkKeys(value: JsonObject, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw unknownParameter(`${path}.${key}`);
  }
}

function checkObject(value: unknown, path: string): JsonObject {
  if (!isPlainObject(value)) throw invalidType(path, 'an object');
  return value;
}

/** Checks an audio format (`audio/pcm` at 24 kHz, `audio/pcmu`, `audio/pcma`). */
export function checkFormat(value: unknown, path: string): void {
  const format = checkObject(value, path);
  if (format.type === 'audio/pcm') {
    checkKeys(format, ['type', 'rate'], path);
    if (format.rate !== undefined && format.rate !== 24000) {
      throw invalidValue(
        `${path}.rate`,
        `Invalid value: '${String(format.rate)}'. Supported values are: '24000'.`,
      );
    }
  } else if (format.type === 'audio/pcmu' || format.type === 'audio/pcma') {
    checkKeys(format, ['type'], path);
  } else {
    throw invalidValue(
      `${path}.type`,
      `Invalid value: '${String(format.type)}'. Supported values are: 'audio/pcm', 'audio/pcmu', and 'audio/pcma'.`,
    );
  }
}

function checkNumber(value: unknown, path: string, min: number, max: number): void {
  if (typeof value !== 'number' || Number.isNaN(value)) throw invalidType(path, 'a number');
  if (value < min || value > max) {
    throw invalidValue(path, `Invalid value: '${value}'. Expected a value between ${min} and ${max}.`);
  }
}

function checkTurnDetection(value: unknown, path: string): void {
  if (value === null) return;
  const td = checkObject(value, path);
  if (td.type === 'server_vad') {
    checkKeys(
      td,
      [
        'type',
        'threshold',
        'prefix_padding_ms',
        'silence_duration_ms',
        'idle_timeout_ms',
        'create_response',
        'interrupt_response',
      ],
      path,
    );
    if (td.threshold !== undefined) checkNumber(td.threshold, `${path}.threshold`, 0, 1);
    if (td.prefix_padding_ms !== undefined)
      checkNumber(td.prefix_padding_ms, `${path}.prefix_padding_ms`, 0, 10_000);
    if (td.silence_duration_ms !== undefined) {
      checkNumber(td.silence_duration_ms, `${path}.silence_duration_ms`, 0, 10_000);
    }
    if (td.idle_timeout_ms !== undefined && td.idle_timeout_ms !== null) {
      checkNumber(td.idle_timeout_ms, `${path}.idle_timeout_ms`, 5000, 30_000);
    }
  } else if (td.type === 'semantic_vad') {
    checkKeys(td, ['type', 'eagerness', 'create_response', 'interrupt_response'], path);
    if (td.eagerness !== undefined && !['low', 'medium', 'high', 'auto'].includes(td.eagerness as string)) {
      throw invalidValue(
        `${path}.eagerness`,
        `Invalid value: '${String(td.eagerness)}'. Supported values are: 'low', 'medium', 'high', and 'auto'.`,
      );
    }
  } else {
    throw invalidValue(
      `${path}.type`,
      `Invalid value: '${String(td.type)}'. Supported values are: 'server_vad' and 'semantic_vad'.`,
    );
  }
  for (const flag of ['create_response', 'interrupt_response']) {
    if (td[flag] !== undefined && typeof td[flag] !== 'boolean')
      throw invalidType(`${path}.${flag}`, 'a boolean');
  }
}

/** Checks `output_modalities` (exactly one of `text` / `audio`). */
export function checkOutputModalities(value: unknown, path: string): void {
  if (!Array.isArray(value)) throw invalidType(path, 'an array');
  if (value.length !== 1 || (value[0] !== 'text' && value[0] !== 'audio')) {
    throw invalidValue(
      path,
      `Invalid value: '${JSON.stringify(value)}'. Supported values are: '["text"]' and '["audio"]'.`,
    );
  }
}

const MCP_TOOL_KEYS = [
  'type',
  'server_label',
  'server_url',
  'connector_id',
  'server_description',
  'authorization',
  'headers',
  'allowed_tools',
  'allowed_callers',
  'require_approval',
  'defer_loading',
  'tunnel_id',
];

function checkMcpTool(tool: JsonObject, path: string): void {
  checkKeys(tool, MCP_TOOL_KEYS, path);
  if (tool.server_label === undefined) throw missingParameter(`${path}.server_label`);
  if (typeof tool.server_label !== 'string') throw invalidType(`${path}.server_label`, 'a string');
  if (tool.server_url === undefined && tool.connector_id === undefined) {
    throw missingParameter(`${path}.server_url`);
  }
  if (tool.server_url !== undefined && typeof tool.server_url !== 'string') {
    throw invalidType(`${path}.server_url`, 'a string');
  }
}

/** Checks a `tools` array: function tools and MCP servers. */
export function checkTools(value: unknown, path: string): void {
  if (!Array.isArray(value)) throw invalidType(path, 'an array');
  value.forEach((tool, i) => {
    const t = checkObject(tool, `${path}[${i}]`);
    if (t.type === 'mcp') {
      checkMcpTool(t, `${path}[${i}]`);
      return;
    }
    if (t.type !== 'function') {
      throw invalidValue(
        `${path}[${i}].type`,
        `Invalid value: '${String(t.type)}'. Supported values are: 'function' and 'mcp'.`,
      );
    }
    checkKeys(t, ['type', 'name', 'description', 'parameters'], `${path}[${i}]`);
    if (typeof t.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) {
      throw invalidValue(
        `${path}[${i}].name`,
        `Invalid value: '${String(t.name)}'. Expected a function name.`,
      );
    }
    if (t.description !== undefined && typeof t.description !== 'string') {
      throw invalidType(`${path}[${i}].description`, 'a string');
    }
    if (t.parameters !== undefined) checkObject(t.parameters, `${path}[${i}].parameters`);
  });
}

/** Checks a `tool_choice`. */
export function checkToolChoice(value: unknown, path: string): void {
  if (value === 'auto' || value === 'none' || value === 'required') return;
  if (isPlainObject(value) && value.type === 'function' && typeof value.name === 'string') return;
  if (
    isPlainObject(value) &&
    value.type === 'mcp' &&
    typeof value.server_label === 'string' &&
    (value.name === undefined || typeof value.name === 'string')
  ) {
    return;
  }
  throw invalidValue(
    path,
    `Invalid value: '${JSON.stringify(value)}'. Supported values are: 'auto', 'none', and 'required'.`,
  );
}

const TRANSCRIPTION_DELAYS = ['minimal', 'low', 'medium', 'high', 'xhigh'];

function checkStringArray(value: unknown, path: string): void {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw invalidType(path, 'an array of strings');
  }
}

/** Checks `audio.input.transcription` (including the newer `languages`, `keywords` and `delay`). */
export function checkTranscription(value: unknown, path: string): void {
  if (value === null) return;
  const t = checkObject(value, path);
  checkKeys(t, ['model', 'language', 'prompt', 'languages', 'keywords', 'delay'], path);
  for (const key of ['model', 'language', 'prompt']) {
    if (t[key] !== undefined && typeof t[key] !== 'string') throw invalidType(`${path}.${key}`, 'a string');
  }
  if (t.languages !== undefined) checkStringArray(t.languages, `${path}.languages`);
  if (t.keywords !== undefined) checkStringArray(t.keywords, `${path}.keywords`);
  if (t.delay !== undefined && !TRANSCRIPTION_DELAYS.includes(t.delay as string)) {
    throw invalidValue(
      `${path}.delay`,
      `Invalid value: '${String(t.delay)}'. Supported values are: ${TRANSCRIPTION_DELAYS.map((d) => `'${d}'`).join(', ')}.`,
    );
  }
}

/** Checks a voice: a built-in name or a custom `{ id }`. */
export function checkVoice(voice: unknown, path: string): void {
  const ok =
    (typeof voice === 'string' && VOICES.includes(voice)) ||
    (isPlainObject(voice) && typeof voice.id === 'string');
  if (!ok) {
    throw invalidValue(
      path,
      `Invalid value: '${JSON.stringify(voice)}'. Supported values are: ${VOICES.map((v) => `'${v}'`).join(', ')}.`,
    );
  }
}

/** Checks `max_output_tokens`. */
export function checkMaxOutputTokens(value: unknown, path: string): void {
  if (value === 'inf') return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 4096) {
    throw invalidValue(
      path,
      `Invalid value: '${String(value)}'. Expected an integer between 1 and 4096, or 'inf'.`,
    );
  }
}

/**
 * Validates a `session.update` payload against the current session and returns the new effective session.
 * The update is all or nothing: any problem throws and nothing changes.
 */
export function applySessionUpdate(
  current: WireSession,
  patch: unknown,
  state: { assistantAudioProduced: boolean; refuseModelChange?: boolean },
): WireSession {
  if (patch === undefined) throw missingParameter('session');
  const session = checkObject(patch, 'session');
  if (session.type === undefined) throw missingParameter('session.type');
  checkSessionType(session.type, current.type === 'transcription' ? 'transcription' : 'realtime');
  if (current.type === 'transcription') return applyTranscriptionUpdate(current, session);
  for (const key of Object.keys(session))
    if (!SESSION_KEYS.has(key)) throw unknownParameter(`session.${key}`);
  if (session.model !== undefined && typeof session.model !== 'string') {
    throw invalidType('session.model', 'a string');
  }
  if (session.model !== undefined && session.model !== current.model) {
    // The URL sets the model; whether the service refuses an update naming another one is unconfirmed.
    if (state.refuseModelChange) {
      throw invalidValue('session.model', 'The model of a session is set by the URL and cannot be changed.');
    }
    const { model: _ignored, ...kept } = session;
    return applySessionUpdate(current, kept, state);
  }
  if (session.instructions !== undefined && typeof session.instructions !== 'string') {
    throw invalidType('session.instructions', 'a string');
  }
  if (session.output_modalities !== undefined)
    checkOutputModalities(session.output_modalities, 'session.output_modalities');
  if (session.tools !== undefined) checkTools(session.tools, 'session.tools');
  if (session.tool_choice !== undefined) checkToolChoice(session.tool_choice, 'session.tool_choice');
  if (session.max_output_tokens !== undefined)
    checkMaxOutputTokens(session.max_output_tokens, 'session.max_output_tokens');
  if (session.include !== undefined && session.include !== null) {
    if (
      !Array.isArray(session.include) ||
      session.include.some((v) => v !== 'item.input_audio_transcription.logprobs')
    ) {
      throw invalidValue(
        'session.include',
        "Supported values are: 'item.input_audio_transcription.logprobs'.",
      );
    }
  }
  if (session.audio !== undefined) {
    const audio = checkObject(session.audio, 'session.audio');
    checkKeys(audio, ['input', 'output'], 'session.audio');
    if (audio.input !== undefined) {
      const input = checkObject(audio.input, 'session.audio.input');
      checkKeys(
        input,
        ['format', 'transcription', 'noise_reduction', 'turn_detection'],
        'session.audio.input',
      );
      if (input.format !== undefined) checkFormat(input.format, 'session.audio.input.format');
      if (input.transcription !== undefined) {
        checkTranscription(input.transcription, 'session.audio.input.transcription');
      }
      if (input.noise_reduction !== undefined && input.noise_reduction !== null) {
        const n = checkObject(input.noise_reduction, 'session.audio.input.noise_reduction');
        if (n.type !== 'near_field' && n.type !== 'far_field') {
          throw invalidValue(
            'session.audio.input.noise_reduction.type',
            `Invalid value: '${String(n.type)}'. Supported values are: 'near_field' and 'far_field'.`,
          );
        }
      }
      if (input.turn_detection !== undefined) {
        checkTurnDetection(input.turn_detection, 'session.audio.input.turn_detection');
      }
    }
    if (audio.output !== undefined) {
      const output = checkObject(audio.output, 'session.audio.output');
      checkKeys(output, ['format', 'voice', 'speed'], 'session.audio.output');
      if (output.format !== undefined) checkFormat(output.format, 'session.audio.output.format');
      if (output.speed !== undefined) checkNumber(output.speed, 'session.audio.output.speed', 0.25, 1.5);
      if (output.voice !== undefined) {
        const voice = output.voice;
        checkVoice(voice, 'session.audio.output.voice');
        const currentVoice = current.audio?.output?.voice;
        if (state.assistantAudioProduced && JSON.stringify(voice) !== JSON.stringify(currentVoice)) {
          throw new SimulatorServiceError(
            'cannot_update_voice',
            "Cannot update a conversation's voice if assistant audio is present.",
          );
        }
      }
    }
  }
  return mergeUpdate(current, session);
}

/**
 * Throws unless `type` is a session type, and the one of the session it updates (a session cannot change type).
 */
function checkSessionType(type: unknown, current: 'realtime' | 'transcription'): void {
  if (type !== 'realtime' && type !== 'transcription') {
    throw invalidValue(
      'session.type',
      `Invalid value: '${String(type)}'. Supported values are: 'realtime' and 'transcription'.`,
    );
  }
  if (type !== current) {
    throw new SimulatorServiceError(
      'invalid_value',
      `Passing a ${type} session update event to a ${current} session is not allowed.`,
      'session.type',
    );
  }
}

/** The session after a checked update: arrays, turn_detection and formats replace; other objects merge. */
function mergeUpdate(current: WireSession, session: JsonObject): WireSession {
  const next = deepMerge(current as JsonObject, session) as WireSession;
  const input = (session.audio as { input?: Record<string, unknown> } | undefined)?.input;
  const output = (session.audio as { output?: Record<string, unknown> } | undefined)?.output;
  if (input?.turn_detection !== undefined && next.audio?.input) {
    next.audio.input.turn_detection = input.turn_detection as never;
  }
  if (input?.format !== undefined && next.audio?.input) next.audio.input.format = input.format as never;
  if (output?.format !== undefined && next.audio?.output) next.audio.output.format = output.format as never;
  return effectiveSession(next);
}

/** A transcription session's update: `type: 'transcription'`, input audio settings and `include` only. */
function applyTranscriptionUpdate(current: WireSession, session: JsonObject): WireSession {
  checkKeys(session, ['type', 'audio', 'include'], 'session');
  if (session.audio !== undefined) {
    const audio = checkObject(session.audio, 'session.audio');
    checkKeys(audio, ['input'], 'session.audio');
  }
  // The input checks are the realtime session's.
  const { type: _type, ...rest } = session;
  applySessionUpdate(
    { ...current, type: 'realtime' },
    { ...rest, type: 'realtime' },
    { assistantAudioProduced: false },
  );
  return mergeUpdate(current, session);
}

/** The turn detection the service reports: the given fields over the defaults of its type. */
function effectiveTurnDetection(td: WireTurnDetection | null | undefined): WireTurnDetection | null {
  if (!td) return null;
  if (td.type === 'semantic_vad') {
    return { eagerness: 'auto', create_response: true, interrupt_response: true, ...td };
  }
  return {
    threshold: 0.5,
    prefix_padding_ms: 300,
    silence_duration_ms: 200,
    idle_timeout_ms: null,
    create_response: true,
    interrupt_response: true,
    ...td,
  };
}

const effectiveFormat = (format: WireAudioFormat | undefined): WireAudioFormat =>
  !format || format.type === 'audio/pcm' ? { type: 'audio/pcm', rate: 24000 } : { type: format.type };

/**
 * The session as `session.created` / `session.updated` report it: every field present, defaults filled in (a
 * partial `turn_detection` gets the other fields of its type, a format its rate).
 */
export function effectiveSession(session: WireSession): WireSession {
  const next = structuredClone(session);
  const input = next.audio?.input ?? {};
  const output = next.audio?.output ?? {};
  const effectiveInput = {
    ...input,
    format: effectiveFormat(input.format),
    transcription: input.transcription ?? null,
    noise_reduction: input.noise_reduction ?? null,
    turn_detection: effectiveTurnDetection(input.turn_detection),
  };
  if (next.type === 'transcription') {
    next.audio = { input: effectiveInput };
    return next;
  }
  next.audio = {
    input: effectiveInput,
    output: {
      ...output,
      format: effectiveFormat(output.format),
      voice: output.voice ?? 'alloy',
      speed: output.speed ?? 1,
    },
  };
  return next;
}
