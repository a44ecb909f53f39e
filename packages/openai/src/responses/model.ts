import {
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type ParleyError,
} from '@parley/core';
import { redactError } from '../shared/redact.js';
import { abortable } from './abort.js';
import { OpenAIConnectionError } from './errors.js';
import {
  type OpenAIResponsesModelOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
  validateModelName,
} from './options.js';
import { toResponsesBody } from './request-mapping.js';
import { fromResponsesResponse } from './response-mapping.js';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';
import { mapStreamEvent } from './stream-events.js';
import { ResponsesTransport } from './transport.js';

const CAPABILITIES: ModelCapabilities = Object.freeze({
  streaming: true,
  tools: true,
  structuredOutput: true,
  parallelToolCalls: true,
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
    const result = await this.#transport.post(
      { ...body, stream: false },
      {
        signal: options.signal,
        stream: false,
        read: async (response, signal, requestId) => {
          const text = await abortable(response.text(), signal);
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          return fromResponsesResponse(json, requestId);
        },
      },
    );
    result.dispose();
    return result.value;
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
    const opened = await this.#transport.post(
      { ...body, stream: true },
      { signal: options.signal, stream: true, read: async (response) => response },
    );
    const { value: response, requestId, signal } = opened;
    const events = response.body ? readServerSentEvents(response.body, signal) : undefined;
    try {
      if (!events) {
        throw new OpenAIConnectionError(
          'stream_interrupted',
          'The OpenAI API answered a stream request without a body.',
          { requestId },
        );
      }
      for (;;) {
        let next: IteratorResult<ServerSentEvent>;
        try {
          next = await events.next();
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          throw interrupted(error, requestId);
        }
        if (next.done) throw interrupted(undefined, requestId);
        const step = mapStreamEvent(next.value, requestId);
        if (step.kind === 'skip') continue;
        yield step.event;
        if (step.kind === 'done') return;
      }
    } catch (error) {
      if (signal.aborted && error === signal.reason) throw error;
      throw redactError(error, [opened.apiKey]);
    } finally {
      opened.dispose();
      await events?.return(undefined);
      // A body whose reader was never taken (no event read yet) is released here.
      if (response.body && !response.body.locked) response.body.cancel().catch(() => {});
    }
  }
}

function interrupted(cause: unknown, requestId: string | undefined): ParleyError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ' before its final event';
  return new OpenAIConnectionError('stream_interrupted', `The OpenAI response stream ended${detail}.`, {
    cause,
    requestId,
  });
}
