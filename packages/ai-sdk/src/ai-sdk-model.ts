import type {
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import {
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@parley/core';
import { abortable } from '@parley/core/internal';
import { toCallOptions } from './call-options.js';
import { requestIdOf, toParleyError } from './error-mapping.js';
import { AISdkAPIError } from './errors.js';
import { type AISdkModelOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { toOutput, toUsage } from './response-mapping.js';
import { type AISdkLanguageModel, checkLanguageModel } from './specification.js';
import { StreamFolder } from './stream-mapping.js';

type GenerateResult = LanguageModelV4GenerateResult | LanguageModelV3GenerateResult;
type StreamResult = LanguageModelV4StreamResult | LanguageModelV3StreamResult;

/** Reads what a model says about itself: `supportsStructuredOutputs: false` (OpenAI-compatible models) and the like. */
function capabilitiesOf(
  model: AISdkLanguageModel,
  overrides: Partial<Omit<ModelCapabilities, 'hostedTools'>>,
): ModelCapabilities {
  const structured = (model as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs;
  return Object.freeze({
    streaming: true,
    tools: true,
    structuredOutput: typeof structured === 'boolean' ? structured : true,
    parallelToolCalls: true,
    ...overrides,
  });
}

/**
 * Any Vercel AI SDK language model (provider specification `v4` or `v3`: AI SDK 7 or 6) as a Parley text
 * {@link Model}, so an `Agent` runs on Anthropic, Gemini, Mistral, Groq, Ollama… through their AI SDK provider
 * packages:
 *
 * ```ts
 * const agent = new Agent({ name: 'Assistant', model: new AISdkModel(anthropic('claude-sonnet-4-5')) });
 * ```
 *
 * Streaming, function tools (several per response), structured output (`responseFormat: json` with the schema),
 * usage, and abort (the signal is passed to the provider, and a call that ignores it still ends at once with the
 * signal's reason). Provider failures arrive as {@link AISdkAPIError} with the HTTP status and request id.
 * Reasoning parts are not conversation items: they stay in `raw` (and arrive as `raw` stream events), and are not
 * sent back to the model on the next turn.
 */
export class AISdkModel implements Model {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  /** The AI SDK provider's name, e.g. `anthropic.messages`. */
  readonly provider: string;
  /** The provider's model id, e.g. `claude-sonnet-4-5`. */
  readonly modelId: string;
  /**
   * Streaming, tools and parallel tool calls: every model of the specification has them. Structured output: `false`
   * where the model says `supportsStructuredOutputs: false`. Each can be overridden with the `capabilities` option.
   */
  readonly capabilities: ModelCapabilities;
  /** The wrapped AI SDK model. */
  readonly model: AISdkLanguageModel;
  readonly #options: ResolvedOptions;

  /** Throws an `UnsupportedSpecificationVersionError` for a model of another specification version. */
  constructor(model: AISdkLanguageModel, options: AISdkModelOptions = {}) {
    this.model = checkLanguageModel(model);
    this.#options = resolveOptions(options);
    this.provider = this.model.provider;
    this.modelId = this.model.modelId;
    this.capabilities = capabilitiesOf(this.model, this.#options.capabilities);
  }

  /** One `doGenerate` call, mapped to conversation items and usage. */
  async getResponse(request: ModelRequest, options: { signal?: AbortSignal } = {}): Promise<ModelResponse> {
    const { signal } = options;
    signal?.throwIfAborted();
    const callOptions = toCallOptions(request, signal, this.#options.structuredOutputName);
    let result: GenerateResult;
    try {
      const call = Promise.resolve().then(
        (): PromiseLike<GenerateResult> => this.model.doGenerate(callOptions),
      );
      result = signal ? await abortable(call, signal) : await call;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw toParleyError(error, this.provider);
    }
    const structured = 'structuredOutputText' in result ? result.structuredOutputText : undefined;
    const response: ModelResponse = {
      output: toOutput(result.content, request.outputSchema ? structured : undefined),
      usage: toUsage(result.usage),
      raw: result,
    };
    if (result.response?.id) response.responseId = result.response.id;
    return response;
  }

  /**
   * One `doStream` call: `response_started`, `text_delta`s, `raw` for every other part, and `response_done` with the
   * whole response after the provider's `finish` part. An `error` part, or a stream that ends without `finish`,
   * rejects with an {@link AISdkAPIError}.
   */
  async *streamResponse(
    request: ModelRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ModelStreamEvent> {
    const { signal } = options;
    signal?.throwIfAborted();
    const callOptions = toCallOptions(request, signal, this.#options.structuredOutputName);
    let opened: StreamResult;
    const call = Promise.resolve().then((): PromiseLike<StreamResult> => this.model.doStream(callOptions));
    try {
      opened = signal ? await abortable(call, signal) : await call;
    } catch (error) {
      if (signal?.aborted) {
        // A stream that opens after the abort is released, not left running.
        call
          .then(
            (late) => late.stream.cancel(),
            () => {},
          )
          .catch(() => {});
        throw signal.reason;
      }
      throw toParleyError(error, this.provider);
    }
    const requestId = requestIdOf(opened.response?.headers);
    const reader = (opened.stream as ReadableStream<LanguageModelV3StreamPart>).getReader();
    const folder = new StreamFolder();
    let done = false;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
        try {
          next = signal ? await abortable(reader.read(), signal) : await reader.read();
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          throw toParleyError(error, this.provider, { inStream: true, requestId });
        }
        if (next.done) break;
        const step = folder.step(next.value);
        if (step.kind === 'error')
          throw toParleyError(step.error, this.provider, { inStream: true, requestId });
        yield* step.events;
      }
      done = true;
    } finally {
      if (!done) reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    if (!folder.finished) {
      throw new AISdkAPIError(
        'stream_interrupted',
        `The ${this.provider} model's stream ended before its finish part${requestId ? ` (request id ${requestId})` : ''}.`,
        { provider: this.provider, requestId },
      );
    }
    const response: ModelResponse = {
      output: toOutput(folder.content),
      usage: toUsage(folder.usage),
      raw: { response: opened.response, request: opened.request },
    };
    if (folder.responseId) response.responseId = folder.responseId;
    yield { type: 'response_done', response };
  }
}
