import {
  type Clock,
  type ConversationItem,
  delay,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  systemClock,
} from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { mockDelay, mockError, mockHandoff, mockJson, mockText, mockToolCall, mockTurn } from './builders.js';
import { MockScriptError } from './errors.js';
import type { MockOutputResponse, MockResponse, MockScriptEntry } from './script.js';
import { estimateUsage } from './usage-estimate.js';

/** Options of {@link MockModel}. */
export interface MockModelOptions {
  /** The clock scripted delays wait on. Default `systemClock`; tests pass a `ManualClock`. */
  clock?: Clock;
  /** Overrides of the declared capabilities (all `true` by default). */
  capabilities?: Partial<ModelCapabilities>;
  /** Characters per `text_delta` when streaming. Default 4. */
  chunkSize?: number;
  /** Keep a copy of every request in {@link MockModel.calls}. Default `true`; benchmarks turn it off. */
  recordRequests?: boolean;
}

const MODEL_OPTIONS = optionKeys<MockModelOptions>('MockModelOptions', {
  clock: true,
  capabilities: true,
  chunkSize: true,
  recordRequests: true,
});
const CAPABILITY_KEYS = optionKeys<ModelCapabilities>('MockModelOptions', {
  streaming: true,
  tools: true,
  structuredOutput: true,
  parallelToolCalls: true,
  hostedTools: true,
});

/** How a recorded model call ended (so far). */
export type MockCallStatus = 'pending' | 'answered' | 'failed' | 'aborted';

/** One call the mock received. */
export interface MockCall {
  /** 0-based index of the call on this model. */
  index: number;
  /** `true` for `streamResponse`, `false` for `getResponse`. */
  streamed: boolean;
  /** A snapshot of the request (empty `input` and `tools` when `recordRequests` is off). */
  request: ModelRequest;
  /** How the call ended; `pending` while it runs. */
  status: MockCallStatus;
}

const DEFAULT_CAPABILITIES: ModelCapabilities = {
  streaming: true,
  tools: true,
  structuredOutput: true,
  parallelToolCalls: true,
};

/**
 * Call ids that continue the conversation's numbering: with two calls in the input, the next is `call_3`.
 * Every model of a run thus hands out distinct, deterministic ids.
 */
function callIdSequence(request: ModelRequest): () => string {
  const used = new Set<string>();
  for (const item of request.input) if (item.type === 'function_call') used.add(item.callId);
  let next = used.size + 1;
  return () => {
    while (used.has(`call_${next}`)) next++;
    const id = `call_${next++}`;
    used.add(id);
    return id;
  };
}

/**
 * A scripted, in-memory text {@link Model}. Each model call consumes the next script entry, in order:
 * assistant text, function calls (tools and handoffs), structured output, an error, each optionally
 * delayed on an injectable clock. It records every call, sees aborts, and streams text in small deltas.
 *
 * ```ts
 * const model = new MockModel([
 *   MockModel.toolCall('get_weather', { city: 'Oslo' }),
 *   MockModel.text('It is sunny in Oslo.'),
 * ]);
 * ```
 */
export class MockModel implements Model {
  /** A response with one assistant message. */
  static readonly text = mockText;
  /** A structured final output: the value as JSON text. */
  static readonly json = mockJson;
  /** A response with one function call (object arguments, or a raw string). */
  static readonly toolCall = mockToolCall;
  /** A call to the default handoff tool of the named agent (`transfer_to_<name>`). */
  static readonly handoff = mockHandoff;
  /** One response made of several outputs, e.g. `MockModel.turn(MockModel.text('…'), MockModel.toolCall(…))`. */
  static readonly turn = mockTurn;
  /** A model call that fails with the given error. */
  static readonly error = mockError;
  /** A response answered only after a delay on the mock's clock. */
  static readonly delay = mockDelay;

  /** The model interface version this mock implements. */
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  /** Always `mock`. */
  readonly provider = 'mock';
  /** All `true` unless overridden in the options: the mock can do everything the seam describes. */
  readonly capabilities: ModelCapabilities;

  readonly #script: MockScriptEntry[];
  readonly #clock: Clock;
  readonly #chunkSize: number;
  readonly #recordRequests: boolean;
  readonly #calls: MockCall[] = [];
  #callCount = 0;
  #abortedCalls = 0;

  constructor(script: MockScriptEntry[] = [], options: MockModelOptions = {}) {
    MODEL_OPTIONS.check(options);
    if (options.capabilities) CAPABILITY_KEYS.check(options.capabilities, 'capabilities');
    this.#script = [...script];
    this.#clock = options.clock ?? systemClock;
    this.#chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 4));
    this.#recordRequests = options.recordRequests ?? true;
    this.capabilities = { ...DEFAULT_CAPABILITIES, ...options.capabilities };
  }

  /** Appends entries to the script. */
  enqueue(...entries: MockScriptEntry[]): this {
    this.#script.push(...entries);
    return this;
  }

  /** Every call received so far, in order (empty when `recordRequests` is off). */
  get calls(): readonly MockCall[] {
    return this.#calls;
  }

  /** The request of every call received so far, in order. */
  get requests(): readonly ModelRequest[] {
    return this.#calls.map((call) => call.request);
  }

  /** How many calls this model has received. */
  get callCount(): number {
    return this.#callCount;
  }

  /** How many calls ended because their abort signal fired (or their stream was abandoned). */
  get abortedCalls(): number {
    return this.#abortedCalls;
  }

  /** How many script entries are still unused. */
  get remaining(): number {
    return this.#script.length;
  }

  /** Throws a {@link MockScriptError} if part of the script was never used. */
  assertComplete(): void {
    if (this.#script.length > 0) {
      throw new MockScriptError(
        'mock_script_incomplete',
        `MockModel: ${this.#script.length} scripted response(s) were never requested (the model was called ${this.#callCount} time(s)). Remove them or check why the run stopped early.`,
      );
    }
  }

  /** Answers with the next script entry (after its delay); rejects with a scripted error or on abort. */
  async getResponse(request: ModelRequest, options: { signal?: AbortSignal } = {}): Promise<ModelResponse> {
    const call = this.#begin(request, false);
    try {
      const response = await this.#answer(call, request, options.signal);
      call.status = 'answered';
      return response;
    } catch (error) {
      this.#fail(call, options.signal);
      throw error;
    }
  }

  /**
   * Streams the next script entry: `response_started`, the assistant text in `chunkSize` deltas, then
   * `response_done`. Throws the abort reason if the signal aborts on the way.
   */
  async *streamResponse(
    request: ModelRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ModelStreamEvent> {
    const call = this.#begin(request, true);
    const signal = options.signal;
    try {
      const response = await this.#answer(call, request, signal);
      yield { type: 'response_started', responseId: response.responseId };
      for (const item of response.output) {
        if (item.type !== 'message') continue;
        for (let at = 0; at < item.content.length; at += this.#chunkSize) {
          if (signal?.aborted) throw signal.reason;
          yield { type: 'text_delta', delta: item.content.slice(at, at + this.#chunkSize) };
        }
      }
      if (signal?.aborted) throw signal.reason;
      call.status = 'answered';
      yield { type: 'response_done', response };
    } catch (error) {
      this.#fail(call, signal);
      throw error;
    } finally {
      // The consumer stopped iterating before the end (e.g. it was cancelled).
      if (call.status === 'pending') this.#fail(call, signal, true);
    }
  }

  #begin(request: ModelRequest, streamed: boolean): MockCall {
    const call: MockCall = {
      index: this.#callCount++,
      streamed,
      request: this.#recordRequests
        ? { ...request, input: [...request.input], tools: [...request.tools] }
        : { ...request, input: [], tools: [] },
      status: 'pending',
    };
    if (this.#recordRequests) this.#calls.push(call);
    return call;
  }

  #fail(call: MockCall, signal: AbortSignal | undefined, abandoned = false): void {
    if (call.status !== 'pending') return;
    if (abandoned || signal?.aborted) {
      call.status = 'aborted';
      this.#abortedCalls++;
    } else {
      call.status = 'failed';
    }
  }

  async #answer(
    call: MockCall,
    request: ModelRequest,
    signal: AbortSignal | undefined,
  ): Promise<ModelResponse> {
    if (signal?.aborted) throw signal.reason;
    const entry = this.#script.shift();
    if (entry === undefined) {
      throw new MockScriptError(
        'mock_script_exhausted',
        `MockModel: call #${call.index + 1} has no scripted response (the script is used up). Add one with enqueue() or in the constructor.`,
      );
    }
    const scripted: MockResponse = typeof entry === 'function' ? entry(request, call.index) : entry;
    if (scripted.delayMs !== undefined && scripted.delayMs > 0) {
      await delay(this.#clock, scripted.delayMs, signal);
    }
    if (scripted.type === 'error') throw scripted.error;
    return this.#toResponse(call.index, request, scripted);
  }

  #toResponse(index: number, request: ModelRequest, scripted: MockOutputResponse): ModelResponse {
    const nextCallId = callIdSequence(request);
    const output: ConversationItem[] = scripted.output.map((item) =>
      item.type === 'function_call'
        ? {
            type: 'function_call',
            callId: item.callId ?? nextCallId(),
            name: item.name,
            arguments: item.arguments,
            ...(item.id === undefined ? {} : { id: item.id }),
          }
        : { ...item },
    );
    return {
      output,
      usage: { ...estimateUsage(request.input, output), ...scripted.usage },
      responseId: scripted.responseId ?? `mock_resp_${index + 1}`,
    };
  }
}
