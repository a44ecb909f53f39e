import {
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@parley/core';
import { streamCall } from './event-stream-call.js';
import { RESPONSES_HOSTED_TOOLS } from './hosted-tools.js';
import {
  type OpenAIResponsesModelOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
  validateModelName,
} from './options.js';
import { toResponsesBody } from './request-mapping.js';
import { fromResponsesResponse } from './response-mapping.js';
import { mapStreamEvent } from './stream-events.js';
import { TEXT_CAPABILITIES } from './text-capabilities.js';
import { ResponsesTransport } from './transport.js';

const CAPABILITIES: ModelCapabilities = Object.freeze({
  ...TEXT_CAPABILITIES,
  hostedTools: RESPONSES_HOSTED_TOOLS,
});

/**
 * The text {@link Model} over the OpenAI Responses API (`POST {baseURL}/responses`), for the Runner:
 * function tools, structured output, server-sent-event streaming, abort, retries with backoff, and
 * typed errors (`OpenAIAPIError` and its subclasses) carrying the HTTP status and request id.
 * Requests are sent with `store: false`; the conversation travels in full with each call.
 */
export class OpenAIResponsesModel implements Model {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'openai';
  readonly capabilities: ModelCapabilities = CAPABILITIES;
  /** The OpenAI model name this instance calls. */
  readonly model: string;
  readonly #options: ResolvedClientOptions;
  readonly #transport: ResponsesTransport;

  /** Validates `options` (a `UserError` with code `invalid_option` names the bad one) without any network access. */
  constructor(options: OpenAIResponsesModelOptions) {
    const resolved = resolveClientOptions(options);
    this.model = validateModelName(options.model);
    this.#options = resolved;
    this.#transport = new ResponsesTransport(resolved);
  }

  /**
   * One `POST /responses` call, retried on 429 / 5xx / network errors; resolves with the mapped
   * output and usage, or rejects with an `OpenAIAPIError` (or the signal's reason on abort).
   */
  async getResponse(request: ModelRequest, options: { signal?: AbortSignal } = {}): Promise<ModelResponse> {
    const body = toResponsesBody(request, this.model, this.#options.structuredOutput);
    return this.#transport.postForJSON(body, options.signal, fromResponsesResponse);
  }

  /**
   * The same call with `stream: true`: yields `response_started`, `text_delta`s, `raw` for every
   * other event, and ends with `response_done`. Only the request before the first event is retried.
   */
  async *streamResponse(
    request: ModelRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ModelStreamEvent> {
    const body = toResponsesBody(request, this.model, this.#options.structuredOutput);
    yield* streamCall(this.#transport, body, options.signal, { step: mapStreamEvent });
  }
}
