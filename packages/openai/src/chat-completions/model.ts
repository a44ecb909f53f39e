import {
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@parley/core';
import { streamCall } from '../responses/event-stream-call.js';
import { type ResolvedClientOptions, resolveClientOptions, validateModelName } from '../responses/options.js';
import { ResponsesTransport } from '../responses/transport.js';
import { endpointURL } from '../shared/base-url.js';
import {
  CHAT_MODEL_OPTIONS,
  type OpenAIChatCompletionsModelOptions,
  resolveChatCapabilities,
} from './options.js';
import { toChatBody } from './request-mapping.js';
import { fromChatCompletion, invalidChatResponse } from './response-mapping.js';
import { ChatStreamAccumulator } from './stream-accumulator.js';

/**
 * The text {@link Model} over the Chat Completions API (`POST {baseURL}/chat/completions`): OpenAI itself and the
 * servers that speak its dialect (Ollama, vLLM, Groq, OpenRouter, LM Studio, llama.cpp…). Function tools (several
 * per response), structured output (`response_format: json_schema`), server-sent-event streaming, abort, retries,
 * and the same typed errors as {@link OpenAIResponsesModel} (`OpenAIAPIError` and its subclasses, with the HTTP
 * status and request id).
 *
 * What it does not do that the Responses model does: it carries no reasoning items, runs no hosted tools, and keeps
 * no state on the server; every capability it declares is a flag of `capabilities` (all `true` by default, as on
 * OpenAI; declare less with the `capabilities` option for servers and models that lack one).
 */
export class OpenAIChatCompletionsModel implements Model {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'openai-chat';
  readonly capabilities: ModelCapabilities;
  /** The model name this instance calls. */
  readonly model: string;
  readonly #options: ResolvedClientOptions;
  readonly #transport: ResponsesTransport;

  /** Validates `options` (a `UserError` with code `invalid_option` names the bad one) without any network access. */
  constructor(options: OpenAIChatCompletionsModelOptions) {
    const resolved = resolveClientOptions(options, CHAT_MODEL_OPTIONS);
    this.model = validateModelName(options.model);
    this.capabilities = resolveChatCapabilities(options.capabilities);
    this.#options = resolved;
    this.#transport = new ResponsesTransport(resolved, endpointURL(options.baseURL, '/chat/completions'));
  }

  /** One `POST /chat/completions`, retried on 429 / 5xx / network errors. */
  async getResponse(request: ModelRequest, options: { signal?: AbortSignal } = {}): Promise<ModelResponse> {
    const body = toChatBody(request, this.model, this.#options.structuredOutput);
    return this.#transport.postForJSON(body, options.signal, (json, requestId) => {
      if (json === undefined) throw invalidChatResponse('the body is not JSON', requestId);
      return fromChatCompletion(json, requestId);
    });
  }

  /**
   * The same call with `stream: true` and `stream_options.include_usage`: `response_started`, `text_delta`s, `raw`
   * for every chunk without text, and `response_done` at `[DONE]`. Only the request before the first chunk is retried.
   */
  async *streamResponse(
    request: ModelRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ModelStreamEvent> {
    const body = toChatBody(request, this.model, this.#options.structuredOutput);
    const accumulator = new ChatStreamAccumulator();
    yield* streamCall(
      this.#transport,
      { stream_options: { include_usage: true }, ...body },
      options.signal,
      accumulator,
    );
  }
}
