import {
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@parley/core';
import { invalidOption, optionKeys } from '@parley/core/internal';
import { type OpenAIClientOptions, OpenAIResponsesModel } from '@parley/openai';
import { openAIKeyOptions } from './credentials.js';
import {
  type AzureOpenAIConnectionOptions,
  CONNECTION_OPTION_KEYS,
  resolveAzureConnection,
} from './options.js';
import { responsesBaseURL } from './urls.js';

/** Options of {@link AzureOpenAIResponsesModel}: the connection's, and those handed to `@parley/openai`'s Responses model as they are. */
export interface AzureOpenAIResponsesModelOptions
  extends AzureOpenAIConnectionOptions,
    Pick<OpenAIClientOptions, 'fetch' | 'maxRetries' | 'clock' | 'timeoutMs' | 'structuredOutput'> {}

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
    const { fetch, maxRetries, clock, timeoutMs, structuredOutput } = options;
    this.deployment = connection.deployment;
    this.#inner = new OpenAIResponsesModel({
      model: connection.deployment,
      baseURL: responsesBaseURL(connection.base),
      ...openAIKeyOptions(connection.credential),
      headers: connection.headers,
      fetch,
      maxRetries,
      clock,
      timeoutMs,
      structuredOutput,
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
