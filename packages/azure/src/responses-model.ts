import {
  type Clock,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { type OpenAIClientOptions, OpenAIResponsesModel } from '@parley/openai';
import { fetchToken } from './credentials.js';
import {
  type AzureOpenAIConnectionOptions,
  CONNECTION_OPTION_KEYS,
  invalidOption,
  resolveAzureConnection,
} from './options.js';
import { responsesBaseURL } from './urls.js';

/** Options of {@link AzureOpenAIResponsesModel}. */
export interface AzureOpenAIResponsesModelOptions extends AzureOpenAIConnectionOptions {
  /** The `fetch` to use; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** Retries after 429, 408, 409, 5xx, network errors and timeouts. Default 2. */
  maxRetries?: number;
  /** The clock for retry backoff and timeouts. Default the system clock. */
  clock?: Clock;
  /** Per-attempt limit in milliseconds. Default 600 000. */
  timeoutMs?: number;
  /** How a request's `outputSchema` is sent (see `OpenAIClientOptions.structuredOutput`). */
  structuredOutput?: OpenAIClientOptions['structuredOutput'];
}

const MODEL_OPTIONS = optionKeys<AzureOpenAIResponsesModelOptions>('AzureOpenAIResponsesModelOptions', {
  ...CONNECTION_OPTION_KEYS,
  fetch: true,
  maxRetries: true,
  clock: true,
  timeoutMs: true,
  structuredOutput: true,
});

/**
 * The text {@link Model} over Azure OpenAI's Responses API (v1: `POST {endpoint}/openai/v1/responses` with the
 * deployment as `model`), for the Runner. It is `@parley/openai`'s Responses model with Azure's URL and credentials:
 * the key in the `api-key` header, or a Microsoft Entra token (`Authorization: Bearer`) fetched from `tokenProvider`
 * before every request. Errors are `@parley/openai`'s typed API errors, with the HTTP status.
 */
export class AzureOpenAIResponsesModel implements Model {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'azure-openai';
  readonly capabilities: ModelCapabilities;
  /** The deployment this model calls. */
  readonly deployment: string;
  readonly #inner: OpenAIResponsesModel;

  /** Validates `options` (a `UserError` names the bad option and its environment variable) without network access. */
  constructor(options: AzureOpenAIResponsesModelOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw invalidOption('AzureOpenAIResponsesModel options must be an object.');
    }
    MODEL_OPTIONS.check(options);
    const connection = resolveAzureConnection(options, 'AzureOpenAIResponsesModel');
    const { credential } = connection;
    this.deployment = connection.deployment;
    this.#inner = new OpenAIResponsesModel({
      model: connection.deployment,
      baseURL: responsesBaseURL(connection.base),
      ...(credential.kind === 'api-key'
        ? { apiKey: credential.key, authHeader: 'api-key' as const }
        : { apiKeyProvider: () => fetchToken(credential.tokenProvider) }),
      headers: connection.headers,
      ...(options.fetch !== undefined && { fetch: options.fetch }),
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      ...(options.clock !== undefined && { clock: options.clock }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.structuredOutput !== undefined && { structuredOutput: options.structuredOutput }),
    });
    this.capabilities = this.#inner.capabilities;
  }

  getResponse(request: ModelRequest, options: { signal?: AbortSignal } = {}): Promise<ModelResponse> {
    return this.#inner.getResponse(request, options);
  }

  streamResponse(
    request: ModelRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ModelStreamEvent> {
    return this.#inner.streamResponse(request, options);
  }
}
