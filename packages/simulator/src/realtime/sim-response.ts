import { type Clock, PCM16_BYTES_PER_MS } from '@parley/core';
import type {
  WireAudioFormat,
  WireContentIds,
  WireResponse,
  WireServerEvent,
  WireTool,
  WireToolChoice,
  WireUsage,
} from '@parley/openai/wire';
import { encodeBase64 } from '@parley/openai/wire';
import type { IdGenerator } from '../shared/ids.js';
import type { Pace } from '../shared/pace.js';
import { assistantAudio } from '../shared/sim-audio.js';
import {
  arriveAt,
  type BrainOutput,
  type BrainResponse,
  type BrainTurn,
  type Hold,
  isHold,
  type RealtimeBrain,
} from './brain.js';
import type { SimulatorConversation, StoredItem } from './sim-conversation.js';
import { pcm24ToWire, wireBytesPerMs } from './sim-format.js';
import {
  approvedPending,
  hostedActivity,
  mcpHeaders,
  mcpNeedsApproval,
  type SimulatorMcp,
} from './sim-mcp.js';

/** The resolved parameters of one response. */
export interface ResponseParams {
  conversation: 'default' | 'none';
  trigger: 'client' | 'vad';
  instructions: string;
  tools: WireTool[];
  toolChoice: WireToolChoice;
  outputModalities: ('text' | 'audio')[];
  metadata: Record<string, string> | null;
  /** The response's own context (`response.input`), else the default conversation. */
  input: StoredItem[] | undefined;
  maxOutputTokens: number | 'inf';
  /** The format of the audio it speaks (the session's, or `response.audio.output.format`). */
  outputFormat: WireAudioFormat;
  voice: string | { id: string };
}

/** Input tokens of a response's context, by kind (the simulator's prompt cache remembers the last one). */
export interface InputTokens {
  text: number;
  audio: number;
}

/** The simulator's token arithmetic: 4 characters of text, 100 ms of input audio, 50 ms of output audio a token. */
const CHARS_PER_TOKEN = 4;
const INPUT_AUDIO_MS_PER_TOKEN = 100;
const OUTPUT_AUDIO_MS_PER_TOKEN = 50;

/** What a response needs from its connection. */
export interface ResponseHost {
  readonly ids: IdGenerator;
  readonly conversation: SimulatorConversation;
  readonly conversationId: string;
  readonly connectionId: string;
  /**
   * The input tokens of the previous default-conversation response of the connection (its context is a prefix of
   * this one's, so that much counts as cached); updated by each default-conversation response.
   */
  promptCache: InputTokens;
  readonly msPerChar: number;
  readonly chunkMs: number;
  readonly brain: RealtimeBrain;
  /** The connection's hosted MCP servers. */
  readonly mcp: SimulatorMcp;
  /** How fast responses stream (`undefined`: instantly), on `clock`. */
  readonly pace: Pace;
  readonly clock: Clock;
  /** Sends a server event of the wire catalogue (its `event_id` is added). */
  send(event: WireServerEvent): void;
  onAssistantAudio(): void;
  onFinished(run: ResponseRun): void;
}

interface OpenMessage {
  item: StoredItem & { type: 'message' };
  outputIndex: number;
  previousItemId: string | null;
  audio: boolean;
  text: string;
  pending: Uint8Array[];
  pendingBytes: number;
  /** Samples of audio generated so far (also the tone's phase). */
  phase: number;
  /** With a fixed `audioMs`: the message's total characters, and those spoken so far. */
  fixed: { audioMs: number; totalChars: number; chars: number } | undefined;
  /** Whether transcript deltas go out with the audio. */
  transcriptDeltas: boolean;
}

interface OpenFunctionCall {
  item: StoredItem & { type: 'function_call' };
  args: string;
  outputIndex: number;
  previousItemId: string | null;
  ids: { response_id: string; item_id: string; output_index: number; call_id: string };
  deltas: string[];
  streamed: string;
}

type Status = 'completed' | 'cancelled' | 'failed' | 'incomplete';

/** How many times one response asks the brain again after hosted MCP calls, at most. */
const MAX_MCP_ROUNDS = 8;

const clone = <T>(value: T): T => structuredClone(value);

/** A brain output's arguments as the wire carries them: JSON text (`{}` when it gives none). */
function argumentsText(args: string | Record<string, unknown> | undefined): string {
  if (args === undefined) return '{}';
  return typeof args === 'string' ? args : JSON.stringify(args);
}

function normalizeReply(response: BrainResponse): readonly BrainOutput[] {
  const list: readonly (BrainOutput | string)[] = Array.isArray(response)
    ? response
    : [response as BrainOutput | string];
  return list.map((output) => (typeof output === 'string' ? { type: 'message', text: output } : output));
}

/**
 * One simulated response: streams the brain's outputs with the canonical GA event order (§4 of the protocol
 * reference) and ends with exactly one `response.done`. Cancellation is synchronous: the open message gets its
 * closing events with what was streamed so far, then `response.done` with `status: 'cancelled'`.
 */
export class ResponseRun {
  readonly id: string;
  readonly params: ResponseParams;
  readonly #host: ResponseHost;
  readonly #output: StoredItem[] = [];
  #open: OpenMessage | undefined;
  #openCall: OpenFunctionCall | undefined;
  #finished = false;
  #wake: (() => void) | undefined;
  #outputChars = 0;
  #outputAudioMs = 0;
  #input: InputTokens | undefined;
  #cached: InputTokens = { text: 0, audio: 0 };

  constructor(host: ResponseHost, params: ResponseParams) {
    this.#host = host;
    this.params = params;
    this.id = host.ids.next('resp');
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Sends `response.created` and starts streaming the brain's response. */
  start(): void {
    this.#input = this.#inputTokens();
    if (this.params.conversation === 'default' && this.params.input === undefined) {
      const cache = this.#host.promptCache;
      this.#cached = {
        text: Math.min(cache.text, this.#input.text),
        audio: Math.min(cache.audio, this.#input.audio),
      };
      cache.text = this.#input.text;
      cache.audio = this.#input.audio;
    }
    this.#host.send({ type: 'response.created', response: this.#responseObject('in_progress', null, null) });
    // Approved MCP calls run first; the model then answers with their results.
    const approved =
      this.params.conversation === 'default' ? approvedPending(this.#host.conversation.items) : [];
    if (approved.length > 0) {
      void this.#runApproved(approved);
      return;
    }
    let response: BrainResponse | Promise<BrainResponse>;
    try {
      response = this.#host.brain(this.#turn());
    } catch (error) {
      this.#finish('failed', {
        type: 'failed',
        error: { type: 'server_error', code: 'brain_error', message: String(error) },
      });
      return;
    }
    if (response instanceof Promise) {
      response.then(
        (value) => this.#stream(normalizeReply(value)),
        (error) =>
          this.#finish('failed', {
            type: 'failed',
            error: { type: 'server_error', code: 'brain_error', message: String(error) },
          }),
      );
    } else {
      void this.#stream(normalizeReply(response));
    }
  }

  async #runApproved(requests: (StoredItem & { type: 'mcp_approval_request' })[]): Promise<void> {
    for (const request of requests) {
      const ran = await this.#runMcpCall(request.server_label, request.name, request.arguments, request.id);
      if (!ran) return;
    }
    await this.#continue(1);
  }

  /** Asks the brain again (after hosted calls) and streams what it says; `round` bounds the rounds. */
  async #continue(round: number): Promise<void> {
    if (this.#finished) return;
    if (round > MAX_MCP_ROUNDS) {
      this.#fail('mcp_call_limit', `The model made hosted MCP calls in ${MAX_MCP_ROUNDS} rounds in a row.`);
      return;
    }
    let outputs: readonly BrainOutput[];
    try {
      outputs = normalizeReply(await this.#host.brain(this.#turn()));
    } catch (error) {
      this.#fail('brain_error', String(error), 'server_error');
      return;
    }
    await this.#stream(outputs, round);
  }

  #fail(code: string, message: string, type = 'invalid_request_error'): void {
    this.#finish('failed', { type: 'failed', error: { type, code, message } });
  }

  /**
   * The brain's `mcp_call`: an approval request that ends the response (`'approval'`), or the call run now
   * (`'ran'`); `'stopped'` when the response ended meanwhile (cancelled, or failed for a call the session cannot
   * make).
   */
  async #mcpCall(
    output: Extract<BrainOutput, { type: 'mcp_call' }>,
  ): Promise<'approval' | 'ran' | 'stopped'> {
    const args = argumentsText(output.arguments);
    const tool = this.#mcpTool(output.server);
    if (!tool) {
      this.#fail(
        'mcp_server_not_configured',
        `No mcp tool with server_label '${output.server}' in the session.`,
      );
      return 'stopped';
    }
    const offered = await this.#host.mcp.tools(tool);
    if (this.#finished) return 'stopped';
    if (!offered?.some((t) => t.name === output.name)) {
      this.#fail('mcp_tool_not_found', `The MCP server '${output.server}' offers no tool '${output.name}'.`);
      return 'stopped';
    }
    if (!mcpNeedsApproval(tool, output.name)) {
      return (await this.#runMcpCall(output.server, output.name, args)) ? 'ran' : 'stopped';
    }
    const item: StoredItem & { type: 'mcp_approval_request' } = {
      id: this.#host.ids.next('item'),
      object: 'realtime.item',
      type: 'mcp_approval_request',
      server_label: output.server,
      name: output.name,
      arguments: args,
    };
    const { outputIndex, previousItemId } = this.#addOutputItem(item);
    this.#itemDone(item, outputIndex, previousItemId);
    return 'approval';
  }

  #mcpTool(server: string) {
    return this.params.tools.find(
      (tool): tool is Extract<WireTool, { type: 'mcp' }> =>
        tool.type === 'mcp' && tool.server_label === server,
    );
  }

  /** Runs one hosted MCP call with its events; `false` when the response ended meanwhile. */
  async #runMcpCall(
    server: string,
    name: string,
    args: string,
    approvalRequestId?: string,
  ): Promise<boolean> {
    const tool = this.#mcpTool(server);
    const item: StoredItem & { type: 'mcp_call' } = {
      id: this.#host.ids.next('item'),
      object: 'realtime.item',
      type: 'mcp_call',
      server_label: server,
      name,
      arguments: '',
      approval_request_id: approvalRequestId ?? null,
      output: null,
      error: null,
    };
    const { outputIndex, previousItemId } = this.#addOutputItem(item);
    const ids = { response_id: this.id, item_id: item.id, output_index: outputIndex };
    this.#host.send({ type: 'response.mcp_call_arguments.delta', ...ids, delta: args });
    this.#host.send({ type: 'response.mcp_call_arguments.done', ...ids, arguments: args });
    item.arguments = args;
    this.#outputChars += args.length;
    this.#host.send({ type: 'response.mcp_call.in_progress', item_id: item.id, output_index: outputIndex });
    const server_ = tool && this.#host.mcp.server(tool);
    try {
      if (!tool || !server_) throw new Error(`The MCP server '${server}' is not reachable.`);
      const parsed = JSON.parse(args || '{}') as Record<string, unknown>;
      item.output = await server_.callTool(name, parsed, mcpHeaders(tool));
    } catch (error) {
      item.error = error instanceof Error ? error.message : String(error);
    }
    if (this.#finished) return false;
    this.#host.send({
      type: item.error === null ? 'response.mcp_call.completed' : 'response.mcp_call.failed',
      item_id: item.id,
      output_index: outputIndex,
    });
    this.#itemDone(item, outputIndex, previousItemId);
    return true;
  }

  /** `response.output_item.done`, and `conversation.item.done` in the default conversation. */
  #itemDone(item: StoredItem, outputIndex: number, previousItemId: string | null): void {
    this.#host.send({
      type: 'response.output_item.done',
      response_id: this.id,
      output_index: outputIndex,
      item: clone(item),
    });
    if (this.params.conversation === 'default') {
      this.#host.send({
        type: 'conversation.item.done',
        previous_item_id: previousItemId,
        item: clone(item),
      });
    }
  }

  /** Cancels the response now (no-op once it has finished). */
  cancel(reason: 'client_cancelled' | 'turn_detected'): void {
    this.#finish('cancelled', { type: 'cancelled', reason });
  }

  /** Ends the response silently, without events (the connection is gone). */
  abandon(): void {
    this.#finished = true;
    this.#wake?.();
  }

  #turn(): BrainTurn {
    const conversation = this.#host.conversation;
    const items = clone(this.params.input ?? conversation.items);
    const messages = conversation.messagesOf(items);
    const lastUser = items.findLastIndex((item) => item.type === 'message' && item.role === 'user');
    const toolOutputs: { callId: string; output: string }[] = [];
    for (const item of items.slice(lastUser + 1)) {
      if (item.type === 'function_call_output')
        toolOutputs.push({ callId: item.call_id, output: item.output });
    }
    const lastUserItem = lastUser === -1 ? undefined : items[lastUser];
    const hosted = hostedActivity(items.slice(lastUser + 1));
    return {
      connectionId: this.#host.connectionId,
      responseId: this.id,
      conversation: this.params.conversation,
      trigger: this.params.trigger,
      items,
      messages,
      lastUserText: lastUserItem ? conversation.textOf(lastUserItem) : undefined,
      toolOutputs,
      hostedCalls: hosted.calls,
      hostedApprovals: hosted.approvals,
      instructions: this.params.instructions,
      tools: clone(this.params.tools),
      toolChoice: clone(this.params.toolChoice),
      outputModalities: [...this.params.outputModalities],
      metadata: this.params.metadata ? { ...this.params.metadata } : null,
    };
  }

  async #stream(outputs: readonly BrainOutput[], round = 0): Promise<void> {
    const firstOutput = outputs.length > 0 ? this.#elapse(this.#host.pace?.firstOutputMs ?? 0, 1) : undefined;
    if (firstOutput && !(await firstOutput)) return;
    for (const output of outputs) {
      if (this.#finished) return;
      switch (output.type) {
        case 'hold':
          if (!(await this.#hold(output.hold))) return;
          break;
        case 'message': {
          const segments = typeof output.text === 'string' ? [output.text] : output.text;
          const totalChars = segments.reduce((n, segment) => n + (isHold(segment) ? 0 : segment.length), 0);
          this.#startMessage(
            output.audioMs === undefined ? undefined : { audioMs: output.audioMs, totalChars, chars: 0 },
            output.transcriptDeltas ?? true,
            output.announceEarly ?? false,
          );
          for (const segment of segments) {
            if (isHold(segment)) {
              this.#flushAudio(true);
              if (!(await this.#hold(segment))) return;
              continue;
            }
            for (const token of segment.match(/\S+\s*|\s+/g) ?? []) {
              const outputMs = this.#streamToken(token);
              if (this.#stopAtMaxOutputTokens()) return;
              const generated = this.#elapse(outputMs);
              if (generated && !(await generated)) return;
            }
          }
          this.#closeMessage('completed');
          break;
        }
        case 'function_call': {
          const call = this.#startFunctionCall(output);
          for (const delta of call.deltas) {
            this.#host.send({ type: 'response.function_call_arguments.delta', ...call.ids, delta });
            call.streamed += delta;
            this.#outputChars += delta.length;
            if (this.#stopAtMaxOutputTokens()) return;
            const generated = this.#elapse(delta.length * this.#host.msPerChar);
            if (generated && !(await generated)) return;
          }
          this.#finishFunctionCall(call);
          break;
        }
        case 'mcp_call': {
          const outcome = await this.#mcpCall(output);
          if (outcome === 'stopped') return;
          if (outcome === 'approval') {
            // The model waits for the decision: the response ends here.
            this.#finish('completed', null);
            return;
          }
          await this.#continue(round + 1);
          return;
        }
        case 'fail':
          this.#finish('failed', {
            type: 'failed',
            error: {
              type: 'invalid_request_error',
              code: output.code ?? 'inference_rate_limit_exceeded',
              message: output.message ?? 'The response failed.',
            },
          });
          return;
      }
    }
    this.#finish('completed', null);
  }

  /**
   * Lets the time pass that generating `outputMs` of audio takes at the pace (`speed` × real time; `speed` 1 for
   * a fixed wait). `undefined` when no time passes (instant mode), so instant responses stream synchronously;
   * else resolves `false` when the response finished (was cancelled) meanwhile.
   */
  #elapse(outputMs: number, speed = this.#host.pace?.speed): Promise<boolean> | undefined {
    const pace = this.#host.pace;
    if (!pace || speed === undefined || outputMs <= 0 || this.#finished) return undefined;
    const clock = this.#host.clock;
    return new Promise<boolean>((resolve) => {
      const timer = clock.setTimeout(() => {
        this.#wake = undefined;
        resolve(!this.#finished);
      }, outputMs / speed);
      this.#wake = () => {
        clock.clearTimeout(timer);
        resolve(false);
      };
    });
  }

  /** Waits at a hold; `false` when the response finished (was cancelled) meanwhile. */
  async #hold(hold: Hold): Promise<boolean> {
    if (this.#finished) return false;
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
      void arriveAt(hold).then(resolve);
    });
    this.#wake = undefined;
    return !this.#finished;
  }

  #ids(message: OpenMessage): WireContentIds {
    return {
      response_id: this.id,
      item_id: message.item.id,
      output_index: message.outputIndex,
      content_index: 0,
    };
  }

  /**
   * Appends `item` to the response's output and announces it; in a default-conversation response it
   * also enters the conversation (`previousItemId` is where). `announceEarly`: `conversation.item.added` comes
   * first, in an out-of-band response too.
   */
  #addOutputItem(
    item: StoredItem,
    announceEarly = false,
  ): { outputIndex: number; previousItemId: string | null } {
    const outputIndex = this.#output.length;
    this.#output.push(item);
    const previousItemId =
      this.params.conversation === 'default' ? this.#host.conversation.insert(item) : null;
    const announce = () =>
      this.#host.send({
        type: 'conversation.item.added',
        previous_item_id: previousItemId,
        item: clone(item),
      });
    if (announceEarly) announce();
    this.#host.send({
      type: 'response.output_item.added',
      response_id: this.id,
      output_index: outputIndex,
      item: clone(item),
    });
    if (!announceEarly && this.params.conversation === 'default') announce();
    return { outputIndex, previousItemId };
  }

  #startMessage(fixed: OpenMessage['fixed'], transcriptDeltas: boolean, announceEarly: boolean): void {
    const item: StoredItem & { type: 'message' } = {
      id: this.#host.ids.next('item'),
      object: 'realtime.item',
      type: 'message',
      role: 'assistant',
      status: 'in_progress',
      content: [],
    };
    const { outputIndex, previousItemId } = this.#addOutputItem(item, announceEarly);
    const audio = this.params.outputModalities.includes('audio');
    const message: OpenMessage = {
      item,
      outputIndex,
      previousItemId,
      audio,
      text: '',
      pending: [],
      pendingBytes: 0,
      phase: 0,
      fixed,
      transcriptDeltas,
    };
    this.#open = message;
    this.#host.send({
      type: 'response.content_part.added',
      ...this.#ids(message),
      part: audio ? { type: 'audio', transcript: '' } : { type: 'text', text: '' },
    });
  }

  /** Streams one token of the open message; returns how much output (ms of audio, or its text equivalent) it is. */
  #streamToken(token: string): number {
    const message = this.#open;
    if (!message) return 0;
    message.text += token;
    this.#outputChars += token.length;
    if (!message.audio) {
      this.#host.send({ type: 'response.output_text.delta', ...this.#ids(message), delta: token });
      return token.length * this.#host.msPerChar;
    }
    if (message.transcriptDeltas) {
      this.#host.send({
        type: 'response.output_audio_transcript.delta',
        ...this.#ids(message),
        delta: token,
      });
    }
    let ms = token.length * this.#host.msPerChar;
    const fixed = message.fixed;
    if (fixed) {
      // Spread exactly `audioMs` over the characters, whatever the rounding per token.
      fixed.chars += token.length;
      const samples = Math.round((fixed.chars / fixed.totalChars) * fixed.audioMs * 24) - message.phase;
      ms = samples / 24;
    }
    const pcm = assistantAudio(ms, message.phase);
    message.phase += pcm.length / 2;
    message.pending.push(pcm);
    message.pendingBytes += pcm.length;
    this.#flushAudio(false);
    return ms;
  }

  /** Sends buffered audio in `chunkMs` deltas; with `all`, the remainder too. */
  #flushAudio(all: boolean): void {
    const message = this.#open;
    if (!message || message.pendingBytes === 0) return;
    const chunkBytes = this.#host.chunkMs * PCM16_BYTES_PER_MS;
    if (!all && message.pendingBytes < chunkBytes) return;
    const buffered = new Uint8Array(message.pendingBytes);
    let offset = 0;
    for (const part of message.pending) {
      buffered.set(part, offset);
      offset += part.length;
    }
    const format = this.params.outputFormat;
    let start = 0;
    while (buffered.length - start >= chunkBytes || (all && start < buffered.length)) {
      const pcm24 = buffered.subarray(start, Math.min(start + chunkBytes, buffered.length));
      start += pcm24.length;
      const chunk = pcm24ToWire(format, pcm24).slice();
      this.#outputAudioMs += pcm24.length / PCM16_BYTES_PER_MS;
      if (this.params.conversation === 'default')
        this.#host.conversation.addAudio(message.item.id, chunk, wireBytesPerMs(format));
      this.#host.onAssistantAudio();
      this.#host.send({
        type: 'response.output_audio.delta',
        ...this.#ids(message),
        delta: encodeBase64(chunk),
      });
    }
    const rest = buffered.slice(start);
    message.pending = rest.length > 0 ? [rest] : [];
    message.pendingBytes = rest.length;
  }

  #closeMessage(status: 'completed' | 'incomplete'): void {
    const message = this.#open;
    if (!message) return;
    this.#flushAudio(true);
    this.#open = undefined;
    const ids = this.#ids(message);
    if (message.audio) {
      this.#host.send({ type: 'response.output_audio.done', ...ids });
      this.#host.send({ type: 'response.output_audio_transcript.done', ...ids, transcript: message.text });
      this.#host.send({
        type: 'response.content_part.done',
        ...ids,
        part: { type: 'audio', transcript: message.text },
      });
      message.item.content = [{ type: 'output_audio', transcript: message.text }];
    } else {
      this.#host.send({ type: 'response.output_text.done', ...ids, text: message.text });
      this.#host.send({
        type: 'response.content_part.done',
        ...ids,
        part: { type: 'text', text: message.text },
      });
      message.item.content = [{ type: 'output_text', text: message.text }];
    }
    message.item.status = status;
    this.#host.send({
      type: 'response.output_item.done',
      response_id: this.id,
      output_index: message.outputIndex,
      item: clone(message.item),
    });
    if (this.params.conversation === 'default' && this.#host.conversation.has(message.item.id)) {
      this.#host.send({
        type: 'conversation.item.done',
        previous_item_id: message.previousItemId,
        item: clone(message.item),
      });
    }
  }

  #startFunctionCall(output: Extract<BrainOutput, { type: 'function_call' }>): OpenFunctionCall {
    const args = argumentsText(output.arguments);
    const callId = output.callId ?? this.#host.ids.next('call');
    const item: StoredItem & { type: 'function_call' } = {
      id: this.#host.ids.next('item'),
      object: 'realtime.item',
      type: 'function_call',
      status: 'in_progress',
      name: output.name,
      call_id: callId,
      arguments: '',
    };
    const { outputIndex, previousItemId } = this.#addOutputItem(item, output.announceEarly ?? false);
    const half = Math.ceil(args.length / 2);
    this.#openCall = {
      item,
      args,
      outputIndex,
      previousItemId,
      ids: { response_id: this.id, item_id: item.id, output_index: outputIndex, call_id: callId },
      deltas: [args.slice(0, half), args.slice(half)].filter((delta) => delta.length > 0),
      streamed: '',
    };
    return this.#openCall;
  }

  /** Completes the call; an interrupted one ends `incomplete` with the arguments streamed so far. */
  #finishFunctionCall(call: OpenFunctionCall, status: 'completed' | 'incomplete' = 'completed'): void {
    const { item } = call;
    this.#openCall = undefined;
    if (status === 'completed') {
      this.#host.send({
        type: 'response.function_call_arguments.done',
        ...call.ids,
        name: item.name,
        arguments: call.args,
      });
    }
    item.arguments = status === 'completed' ? call.args : call.streamed;
    item.status = status;
    this.#host.send({
      type: 'response.output_item.done',
      response_id: this.id,
      output_index: call.outputIndex,
      item: clone(item),
    });
    if (this.params.conversation === 'default') {
      this.#host.send({
        type: 'conversation.item.done',
        previous_item_id: call.previousItemId,
        item: clone(item),
      });
    }
  }

  #finish(status: Status, details: WireResponse['status_details']): void {
    if (this.#finished) return;
    if (this.#open) this.#closeMessage('incomplete');
    if (this.#openCall) this.#finishFunctionCall(this.#openCall, 'incomplete');
    this.#finished = true;
    this.#host.send({
      type: 'response.done',
      response: this.#responseObject(status, details, this.#usage()),
    });
    const total = (this.#usage().total_tokens as number) ?? 0;
    this.#host.send({
      type: 'rate_limits.updated',
      rate_limits: [
        { name: 'tokens', limit: 40_000, remaining: Math.max(0, 40_000 - total), reset_seconds: 0.5 },
      ],
    });
    this.#host.onFinished(this);
    this.#wake?.();
  }

  /** The context's input tokens: text by characters, audio (user or assistant) by its length. */
  #inputTokens(): InputTokens {
    const conversation = this.#host.conversation;
    let textChars = this.params.instructions.length;
    let audioMs = 0;
    for (const item of this.params.input ?? conversation.items) {
      if (conversation.hasAudio(item.id)) audioMs += conversation.audioMs(item.id);
      else textChars += conversation.textOf(item).length;
    }
    return {
      text: Math.ceil(textChars / CHARS_PER_TOKEN),
      audio: Math.ceil(audioMs / INPUT_AUDIO_MS_PER_TOKEN),
    };
  }

  /** Output tokens so far: transcript or text, arguments, and audio. */
  #outputTokens(): { text: number; audio: number } {
    return {
      text: Math.ceil(this.#outputChars / CHARS_PER_TOKEN),
      audio: Math.ceil(this.#outputAudioMs / OUTPUT_AUDIO_MS_PER_TOKEN),
    };
  }

  /** Once the output reached `max_output_tokens`, ends the response `incomplete` (and returns `true`). */
  #stopAtMaxOutputTokens(): boolean {
    const max = this.params.maxOutputTokens;
    if (max === 'inf') return false;
    const output = this.#outputTokens();
    if (output.text + output.audio < max) return false;
    this.#finish('incomplete', { type: 'incomplete', reason: 'max_output_tokens' });
    return true;
  }

  #usage(): WireUsage {
    const input = this.#input ?? this.#inputTokens();
    const output = this.#outputTokens();
    const cached = this.#cached;
    const inputTokens = input.text + input.audio;
    const outputTokens = output.text + output.audio;
    return {
      total_tokens: inputTokens + outputTokens,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      input_token_details: {
        text_tokens: input.text,
        audio_tokens: input.audio,
        image_tokens: 0,
        cached_tokens: cached.text + cached.audio,
        cached_tokens_details: { text_tokens: cached.text, audio_tokens: cached.audio, image_tokens: 0 },
      },
      output_token_details: { text_tokens: output.text, audio_tokens: output.audio },
    };
  }

  #responseObject(
    status: Status | 'in_progress',
    details: WireResponse['status_details'],
    usage: WireUsage | null,
  ): WireResponse {
    return {
      object: 'realtime.response',
      id: this.id,
      status,
      status_details: details,
      output: clone(this.#output),
      conversation_id: this.params.conversation === 'default' ? this.#host.conversationId : null,
      output_modalities: [...this.params.outputModalities],
      max_output_tokens: this.params.maxOutputTokens,
      audio: {
        output: {
          format: clone(this.params.outputFormat),
          voice: clone(this.params.voice),
        },
      },
      usage,
      metadata: this.params.metadata,
    };
  }
}
