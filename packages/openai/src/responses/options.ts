import { type Clock, systemClock, UserError } from '@parley/core';
import {
  invalidOption,
  type OptionKeyList,
  type OptionKeys,
  optionKeys,
  resolveClockOption,
} from '@parley/core/internal';
import { DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from '../constants.js';
import { endpointURL } from '../shared/base-url.js';
import type { StructuredOutputSettings } from './request-mapping.js';

/** Returns the API key to use for the next request (e.g. from a secret store); called once per attempt. */
export type OpenAIApiKeyProvider = () => string | Promise<string>;

/** Connection options shared by {@link OpenAIResponsesModel} and {@link OpenAIProvider}. */
export interface OpenAIClientOptions {
  /**
   * The API key; default the `OPENAI_API_KEY` environment variable. Give this or `apiKeyProvider`, not
   * both. It never appears in errors or logs.
   */
  apiKey?: string;
  /** Supplies the key per request instead of a fixed `apiKey`. */
  apiKeyProvider?: OpenAIApiKeyProvider;
  /** The API root; `POST {baseURL}/responses` is called. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /**
   * How the key is sent: `bearer` (default) as `Authorization: Bearer <key>`, or `api-key` as the `api-key` header
   * (Azure OpenAI keys; Entra tokens go as `bearer`).
   */
  authHeader?: 'bearer' | 'api-key';
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Sent as `OpenAI-Project`. */
  project?: string;
  /** Extra HTTP headers on every request. `Authorization` is always set from the key. */
  headers?: Record<string, string>;
  /** The `fetch` to use; default the global one (looked up per request). */
  fetch?: typeof globalThis.fetch;
  /** Retries after 429, 408, 409, 5xx, network errors and timeouts. Default 2 (three attempts). */
  maxRetries?: number;
  /** The clock for retry backoff and timeouts; tests inject a manual one. Default {@link systemClock}. */
  clock?: Clock;
  /**
   * Per-attempt limit in milliseconds: until the whole body for `getResponse`, until the response
   * headers for `streamResponse`. Default 600000 (10 minutes).
   */
  timeoutMs?: number;
  /**
   * How a request's `outputSchema` is sent (`text.format`): the schema `name` (default `final_output`)
   * and whether OpenAI enforces it strictly (default `true`; strict schemas must list every property
   * in `required` and set `additionalProperties: false`).
   */
  structuredOutput?: { name?: string; strict?: boolean };
}

/** Options of {@link OpenAIResponsesModel}. */
export interface OpenAIResponsesModelOptions extends OpenAIClientOptions {
  /** The model name, e.g. `gpt-4.1` or `gpt-4.1-mini`. */
  model: string;
}

/** Options after validation, with defaults applied. */
export interface ResolvedClientOptions {
  apiKey: () => Promise<string>;
  /** The header that carries the key: `Authorization` (`Bearer <key>`) or `api-key`. */
  authHeader: 'bearer' | 'api-key';
  responsesURL: string;
  headers: Record<string, string>;
  fetch: typeof globalThis.fetch;
  maxRetries: number;
  clock: Clock;
  timeoutMs: number;
  structuredOutput: StructuredOutputSettings;
}

/** The keys of {@link OpenAIClientOptions}, for the option checks of the model and the provider. */
export const CLIENT_OPTION_KEYS: OptionKeyList<OpenAIClientOptions> = {
  apiKey: true,
  apiKeyProvider: true,
  authHeader: true,
  baseURL: true,
  organization: true,
  project: true,
  headers: true,
  fetch: true,
  maxRetries: true,
  clock: true,
  timeoutMs: true,
  structuredOutput: true,
};
const MODEL_OPTIONS = optionKeys<OpenAIResponsesModelOptions>('OpenAIResponsesModelOptions', {
  ...CLIENT_OPTION_KEYS,
  model: true,
});
const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function resolveApiKey(options: OpenAIClientOptions): () => Promise<string> {
  const { apiKey, apiKeyProvider } = options;
  if (apiKey !== undefined && apiKeyProvider !== undefined) {
    throw invalidOption('Give either apiKey or apiKeyProvider to the OpenAI model, not both.');
  }
  if (apiKeyProvider !== undefined) {
    if (typeof apiKeyProvider !== 'function')
      throw invalidOption('apiKeyProvider must be a function returning the API key.');
    return async () => {
      const key = await apiKeyProvider();
      if (typeof key !== 'string' || key.trim() === '') {
        throw new UserError('apiKeyProvider returned no API key; it must return a non-empty string.', {
          code: 'invalid_option',
        });
      }
      return key;
    };
  }
  const fromEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.OPENAI_API_KEY;
  const key = apiKey ?? fromEnv;
  if (typeof key !== 'string' || key.trim() === '') {
    throw invalidOption(
      apiKey === undefined
        ? 'The OpenAI model needs an API key: pass apiKey or apiKeyProvider, or set the OPENAI_API_KEY environment variable.'
        : 'apiKey must be a non-empty string; pass the key itself, e.g. apiKey: process.env.OPENAI_API_KEY.',
    );
  }
  return async () => key;
}

function resolveHeaders(options: OpenAIClientOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.headers !== undefined) {
    if (typeof options.headers !== 'object' || options.headers === null)
      throw invalidOption('headers must be an object.');
    for (const [name, value] of Object.entries(options.headers)) {
      if (typeof value !== 'string') throw invalidOption(`Header "${name}" must be a string.`);
      const lower = name.toLowerCase();
      if (lower === 'authorization' || lower === 'api-key') {
        throw invalidOption(
          `Do not set the ${lower === 'api-key' ? 'api-key' : 'Authorization'} header; pass apiKey or apiKeyProvider instead.`,
        );
      }
      headers[name] = value;
    }
  }
  for (const [name, value] of [
    ['OpenAI-Organization', options.organization],
    ['OpenAI-Project', options.project],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '')
      throw invalidOption(
        `${name === 'OpenAI-Project' ? 'project' : 'organization'} must be a non-empty string.`,
      );
    headers[name] = value;
  }
  return headers;
}

/**
 * Validates connection options and applies defaults; throws a {@link UserError} naming the bad option.
 * `keys` are the valid keys of the whole options object (the model's by default).
 */
export function resolveClientOptions(
  options: OpenAIClientOptions,
  keys: OptionKeys = MODEL_OPTIONS,
): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null)
    throw invalidOption('Pass an options object to the OpenAI model.');
  keys.check(options);
  if (typeof options.structuredOutput === 'object' && options.structuredOutput !== null) {
    optionKeys<NonNullable<OpenAIClientOptions['structuredOutput']>>(keys.owner, {
      name: true,
      strict: true,
    }).check(options.structuredOutput, 'structuredOutput');
  }
  const apiKey = resolveApiKey(options);
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw invalidOption('maxRetries must be a whole number >= 0.');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw invalidOption('timeoutMs must be a positive number of milliseconds.');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw invalidOption('fetch must be a function.');
  const custom = options.fetch;
  const name = options.structuredOutput?.name ?? 'final_output';
  if (!SCHEMA_NAME.test(name)) {
    throw invalidOption(`structuredOutput.name "${name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
  }
  const authHeader = options.authHeader ?? 'bearer';
  if (authHeader !== 'bearer' && authHeader !== 'api-key')
    throw invalidOption("authHeader must be 'bearer' or 'api-key'.");
  return {
    apiKey,
    authHeader,
    responsesURL: endpointURL(options.baseURL, '/responses'),
    headers: resolveHeaders(options),
    fetch: custom ?? ((input, init) => globalThis.fetch(input, init)),
    maxRetries,
    clock: resolveClockOption(options.clock, invalidOption),
    timeoutMs,
    structuredOutput: { name, strict: options.structuredOutput?.strict ?? true },
  };
}

/** Validates a model name. */
export function validateModelName(model: unknown): string {
  if (typeof model !== 'string' || model.trim() === '') {
    throw invalidOption('The OpenAI model needs a model name, e.g. { model: "gpt-4.1" }.');
  }
  return model;
}
