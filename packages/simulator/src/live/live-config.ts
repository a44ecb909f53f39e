import type {
  LiveDelegationConfig,
  LiveResponsesBackend,
  LiveSessionConfig,
  LiveSessionResource,
  LiveSessionUpdateConfig,
} from '@parley/openai/wire';
import { isPlainObject } from '@parley/openai/wire';
import {
  invalidType,
  invalidValue,
  missingParameter,
  SimulatorServiceError,
  unknownParameter,
} from '../shared/sim-errors.js';

/**
 * Strict validation of `session.start` / `session.update` the way GPT-Live does it: an unknown field at any depth
 * is refused with `unknown_parameter` naming its path; startup limits on instructions and history.
 */

type Spec =
  | { kind: 'leaf'; expected: string; check: (value: unknown) => boolean }
  | { kind: 'object'; fields: Record<string, Spec>; required?: readonly string[]; nullable?: boolean }
  | { kind: 'array'; of: Spec }
  | { kind: 'union'; variants: Record<string, Spec>; nullable?: boolean }
  | { kind: 'any' };

const leaf = (expected: string, check: (value: unknown) => boolean): Spec => ({
  kind: 'leaf',
  expected,
  check,
});
const str = leaf('a string', (v) => typeof v === 'string');
const strOrNull = leaf('a string or null', (v) => v === null || typeof v === 'string');
const bool = leaf('a boolean', (v) => typeof v === 'boolean');
const boolOrNull = leaf('a boolean or null', (v) => v === null || typeof v === 'boolean');
const numOrNull = leaf('a number or null', (v) => v === null || typeof v === 'number');
const delayMs = leaf('a non-negative integer', (v) => Number.isInteger(v) && (v as number) >= 0);
const anyArray: Spec = { kind: 'array', of: { kind: 'any' } };
const object = (fields: Record<string, Spec>, required: readonly string[] = [], nullable = false): Spec => ({
  kind: 'object',
  fields,
  required,
  nullable,
});
const constant = (value: unknown) => leaf(JSON.stringify(value), (v) => v === value);

const toolSpec = leaf('a tool object with a type', (v) => isPlainObject(v) && typeof v.type === 'string');

function responsesSpec(required: readonly string[]): Spec {
  return object(
    {
      model: str,
      instructions: strOrNull,
      tools: { kind: 'array', of: toolSpec },
      tool_choice: { kind: 'any' },
      parallel_tool_calls: boolOrNull,
      max_output_tokens: numOrNull,
      reasoning: object({ effort: str, summary: str }, [], true),
      service_tier: strOrNull,
      text: object({ verbosity: str }, [], true),
    },
    required,
  );
}

function delegationSpec(atStart: boolean): Spec {
  return {
    kind: 'union',
    nullable: true,
    variants: {
      client: object({ type: str, acknowledgement_delay_ms: delayMs }),
      responses: object(
        { type: str, responses: responsesSpec(atStart ? ['model'] : []), acknowledgement_delay_ms: delayMs },
        atStart ? ['responses'] : [],
      ),
      decisions: object(
        {
          type: str,
          decisions: object({ model: str, questions: anyArray }),
          acknowledgement_delay_ms: delayMs,
        },
        atStart ? ['decisions'] : [],
      ),
    },
  };
}

const textPart: Spec = object({ type: str, text: str }, ['text']);
const startSpec: Spec = object(
  {
    model: str,
    instructions: strOrNull,
    audio: object({
      format: {
        kind: 'union',
        variants: {
          'audio/pcm': object(
            { type: str, rate: leaf('16000 or 24000', (v) => v === 16000 || v === 24000) },
            ['rate'],
          ),
          'audio/pcmu': object({ type: str, rate: constant(8000) }),
          'audio/pcma': object({ type: str, rate: constant(8000) }),
        },
      },
      output: object({
        voice: leaf(
          'a voice name or { id }',
          (v) => typeof v === 'string' || (isPlainObject(v) && typeof v.id === 'string'),
        ),
      }),
    }),
    delegation: delegationSpec(true),
    input: {
      kind: 'array',
      of: object(
        {
          type: constant('message'),
          role: leaf(
            'developer, user or assistant',
            (v) => v === 'developer' || v === 'user' || v === 'assistant',
          ),
          content: { kind: 'array', of: textPart },
          id: strOrNull,
          status: leaf(
            'completed, incomplete or null',
            (v) => v === null || v === 'completed' || v === 'incomplete',
          ),
        },
        ['role', 'content'],
      ),
    },
    client: object(
      {
        data_channel: object({
          allowed_client_events: { kind: 'any' },
          allowed_server_events: { kind: 'any' },
        }),
      },
      ['data_channel'],
    ),
    store: bool,
    triggers: anyArray,
  },
  ['model'],
);

const updateSpec: Spec = object({ delegation: delegationSpec(false), triggers: anyArray });

function check(spec: Spec, value: unknown, path: string): void {
  switch (spec.kind) {
    case 'any':
      return;
    case 'leaf':
      if (!spec.check(value)) throw invalidType(path, spec.expected);
      return;
    case 'array':
      if (!Array.isArray(value)) throw invalidType(path, 'an array');
      value.forEach((entry, i) => {
        check(spec.of, entry, `${path}[${i}]`);
      });
      return;
    case 'object': {
      if (value === null && spec.nullable) return;
      if (!isPlainObject(value)) throw invalidType(path, 'an object');
      for (const key of Object.keys(value)) {
        const field = spec.fields[key];
        if (!field) throw unknownParameter(`${path}.${key}`);
        check(field, value[key], `${path}.${key}`);
      }
      for (const key of spec.required ?? []) {
        if (value[key] === undefined) throw missingParameter(`${path}.${key}`);
      }
      return;
    }
    case 'union': {
      if (value === null && spec.nullable) return;
      if (!isPlainObject(value)) throw invalidType(path, 'an object');
      const variant = typeof value.type === 'string' ? spec.variants[value.type] : undefined;
      if (value.type === undefined) throw missingParameter(`${path}.type`);
      if (!variant) {
        throw invalidValue(
          `${path}.type`,
          `Invalid value for '${path}.type': expected one of ${Object.keys(spec.variants).join(', ')}.`,
        );
      }
      check(variant, value, path);
    }
  }
}

/** A rough token count (≈ 3.6 characters per token), the unit of the service's text limits. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.6);
}

export const INSTRUCTIONS_TOKEN_LIMIT = 16_384;
export const INPUT_ITEM_LIMIT = 128;
export const INPUT_TOKEN_LIMIT = 8_192;

/** Validates `session.start.session`; throws the service's error. */
export function validateStart(session: unknown): LiveSessionConfig {
  if (session === undefined) throw missingParameter('session');
  check(startSpec, session, 'session');
  const config = session as LiveSessionConfig;
  if (
    typeof config.instructions === 'string' &&
    estimateTokens(config.instructions) > INSTRUCTIONS_TOKEN_LIMIT
  ) {
    throw invalidValue(
      'session.instructions',
      `Instructions must not exceed ${INSTRUCTIONS_TOKEN_LIMIT} tokens.`,
    );
  }
  const input = config.input ?? [];
  if (input.length > INPUT_ITEM_LIMIT) {
    throw invalidValue('session.input', `Input must not exceed ${INPUT_ITEM_LIMIT} items.`);
  }
  let tokens = 0;
  for (const [i, item] of input.entries()) {
    if (item.content.length !== 1) {
      throw invalidValue(`session.input[${i}].content`, 'Each input item must have exactly one text part.');
    }
    tokens += estimateTokens(item.content[0]?.text ?? '');
  }
  if (tokens > INPUT_TOKEN_LIMIT) {
    throw invalidValue('session.input', `Input must not exceed ${INPUT_TOKEN_LIMIT} tokens.`);
  }
  return config;
}

function defaultAckDelay(type: LiveDelegationConfig['type']): number {
  return type === 'decisions' ? 400 : 0;
}

/** The resolved session reported by `session.started`: the config with the service's defaults filled in. */
export function resolveSession(
  config: LiveSessionConfig,
  id: string,
  expiresAt: number,
): LiveSessionResource {
  const delegation: LiveDelegationConfig = config.delegation ?? { type: 'client' };
  return {
    id,
    expires_at: expiresAt,
    model: config.model,
    status: 'active',
    instructions: config.instructions ?? '',
    audio: {
      format: config.audio?.format ?? { type: 'audio/pcm', rate: 24000 },
      output: { voice: config.audio?.output?.voice ?? 'marin' },
    },
    delegation: {
      ...delegation,
      acknowledgement_delay_ms: delegation.acknowledgement_delay_ms ?? defaultAckDelay(delegation.type),
    },
    ...(config.input && { input: config.input }),
    ...(config.client && { client: config.client }),
    store: config.store ?? false,
    ...(config.triggers && { triggers: config.triggers }),
  };
}

/**
 * Applies `session.update.session` to a resolved session: only delegation settings of the same type (backend
 * fields merged, `tools` replaced) and triggers (list replaces, `[]` disables). Throws the service's error.
 */
export function applyUpdate(current: LiveSessionResource, update: unknown): LiveSessionResource {
  if (update === undefined) throw missingParameter('session');
  check(updateSpec, update, 'session');
  const { delegation, triggers } = update as LiveSessionUpdateConfig;
  const next = { ...current };
  if (delegation) {
    const type = current.delegation?.type ?? 'client';
    if (delegation.type !== type) {
      throw new SimulatorServiceError(
        'invalid_value',
        `The delegation type cannot change during a session (it is '${type}'). Start a new session.`,
        'session.delegation.type',
      );
    }
    const merged = { ...current.delegation, ...delegation } as LiveDelegationConfig;
    if (delegation.type === 'responses' && current.delegation?.type === 'responses') {
      (merged as { responses: LiveResponsesBackend }).responses = {
        ...current.delegation.responses,
        ...delegation.responses,
      } as LiveResponsesBackend;
    }
    next.delegation = merged;
  }
  if (triggers) next.triggers = triggers;
  return next;
}
