import {
  type Clock,
  type RealtimeCapabilities,
  type RealtimeCommand,
  type RealtimeEvent,
  type RealtimeItem,
  type RealtimeResponseEndReason,
  type RealtimeResponseStatus,
  UserError,
} from '@parley/core';
import {
  audioChunks,
  type MockReceivedInput,
  type MockResponseScript,
  type MockResponseStep,
  textDeltas,
  unmetExpectation,
} from './script.js';

/** What a connection shares with its {@link MockRealtimeModel}. */
export interface MockModelLink {
  readonly capabilities: RealtimeCapabilities;
  readonly clock: Clock | undefined;
  /** Bytes per millisecond of the audio the connection puts out (PCM16 24 kHz: 48). */
  readonly outputBytesPerMs: number;
  nextId(prefix: string): string;
  /**
   * The next queued script; with none queued, why the response fails (`missing`), or (when the model
   * waits for scripts) a promise of the next one.
   */
  takeScript(
    responseId: string,
  ): { script: MockResponseScript } | { missing: string } | Promise<{ script: MockResponseScript }>;
  /** Records a script failure the test should see (`assertComplete()` throws it). */
  scriptFailed(code: 'mock_script_exhausted' | 'mock_expectation_failed', message: string): void;
  /** Gives back a waiting `takeScript` slot that is no longer needed. */
  cancelTake(promise: Promise<{ script: MockResponseScript }>): void;
  recorded(command: RealtimeCommand): void;
  /** Keeps `conversation` under a new resume token (providers with `sessionResumption`) and returns the token. */
  keepForResume(conversation: readonly RealtimeItem[]): string;
}

/** What the player needs from its connection. */
export interface MockPlayerHost {
  readonly link: MockModelLink;
  emit(event: RealtimeEvent): void;
  /** Adds an output item of a default-conversation response to the conversation; returns the item before it. */
  addItem(item: RealtimeItem): string | null;
  /** `ms` of audio have been sent for assistant message `itemId` so far. */
  audioReceived(itemId: string, ms: number): void;
  /** The session's configured output modalities. */
  outputModalities(): ('text' | 'audio')[] | undefined;
  /** The client closed the connection: play nothing more, emit nothing more. */
  stopped(): boolean;
  /** What the session has sent on this connection, for `expect_input` steps. */
  received(): MockReceivedInput;
  open(): boolean;
}

type MessageItem = Extract<RealtimeItem, { type: 'message' }>;

interface MockResponse {
  readonly id: string;
  readonly clientRequestId: string | undefined;
  readonly ephemeral: boolean;
  readonly modalities: ('text' | 'audio')[];
  cancelled: boolean;
  cancelReason: RealtimeResponseEndReason | undefined;
  /** The script failed (nothing queued, or an unmet expectation): the response ends `failed`. */
  failed: boolean;
  done: boolean;
  paused: boolean;
  status: RealtimeResponseStatus | undefined;
  wake: (() => void) | undefined;
  readonly callIds: string[];
  autoReplied: boolean;
}

/**
 * Plays scripted responses for one mock connection: one step at a time, holding at `pause` steps and
 * `delay`s, and ending cancelled responses at the next step. Tracks the one active default-conversation
 * response and, with `autoToolResponseGeneration`, starts tool follow-ups itself.
 */
export class MockResponsePlayer {
  readonly #host: MockPlayerHost;
  readonly #responses = new Map<string, MockResponse>();
  #active: MockResponse | undefined;
  readonly #completedWithCalls = new Map<string, MockResponse>();
  readonly #outputs = new Set<string>();

  constructor(host: MockPlayerHost) {
    this.#host = host;
  }

  /** The active default-conversation response. */
  get activeResponseId(): string | undefined {
    return this.#active?.id;
  }

  /** Responses held at a `pause` step. */
  get pausedResponseIds(): string[] {
    return [...this.#responses.values()].filter((r) => r.paused).map((r) => r.id);
  }

  /** Starts a response now; it plays `script`, or the next queued one (waiting for it if needed). */
  start(
    clientRequestId: string | undefined,
    ephemeral: boolean,
    modalities: ('text' | 'audio')[] | undefined,
    script: MockResponseScript | undefined,
  ): string {
    return this.#start(clientRequestId, ephemeral, modalities, script).id;
  }

  /** Continues a paused response. */
  resume(responseId: string): void {
    const response = this.#responses.get(responseId);
    if (response?.paused) this.#wake(response);
  }

  /**
   * Cancels a running response (the active default one when `responseId` is omitted); `false` when
   * there is none, like a provider's `response_cancel_not_active`.
   */
  cancel(responseId: string | undefined, reason: RealtimeResponseEndReason): boolean {
    const target = responseId !== undefined ? this.#responses.get(responseId) : this.#active;
    if (!target || target.done || target.cancelled) return false;
    this.#cancel(target, reason);
    return true;
  }

  /** Cancels every running response (the connection is going away). */
  cancelAll(reason: RealtimeResponseEndReason): void {
    for (const response of [...this.#responses.values()]) this.#cancel(response, reason);
  }

  #start(
    clientRequestId: string | undefined,
    ephemeral: boolean,
    modalities: ('text' | 'audio')[] | undefined,
    script: MockResponseScript | undefined,
  ): MockResponse {
    const audioOn = this.#host.link.capabilities.audioOutput;
    const response: MockResponse = {
      id: this.#host.link.nextId('resp'),
      clientRequestId,
      ephemeral,
      modalities: modalities ?? this.#host.outputModalities() ?? (audioOn ? ['audio'] : ['text']),
      cancelled: false,
      cancelReason: undefined,
      failed: false,
      done: false,
      paused: false,
      status: undefined,
      wake: undefined,
      callIds: [],
      autoReplied: false,
    };
    this.#responses.set(response.id, response);
    if (!ephemeral) this.#active = response;
    this.#host.emit({
      type: 'response_started',
      responseId: response.id,
      ephemeral,
      ...(clientRequestId !== undefined && { clientRequestId }),
    });
    void this.#play(response, script);
    return response;
  }

  async #play(response: MockResponse, given: MockResponseScript | undefined): Promise<void> {
    let script = given;
    if (!script) {
      const taken = this.#host.link.takeScript(response.id);
      if ('missing' in taken) {
        this.#failScript(response, 'mock_script_exhausted', taken.missing);
      } else if ('script' in taken) script = taken.script;
      else {
        const cancelled = new Promise<undefined>((resolve) => this.#onWake(response, resolve));
        const result = await Promise.race([taken, cancelled]);
        response.wake = undefined;
        if (result === undefined) this.#host.link.cancelTake(taken);
        script = result?.script;
      }
    }
    for (const step of script?.output ?? []) {
      if (response.cancelled || response.failed || this.#host.stopped()) break;
      await this.#step(response, step);
    }
    this.#finish(response, script);
  }

  async #step(response: MockResponse, step: MockResponseStep): Promise<void> {
    switch (step.type) {
      case 'pause':
        await this.#pause(response);
        return;
      case 'delay':
        await this.#delay(response, step.ms);
        return;
      case 'function_call':
        this.#functionCall(response, step);
        return;
      case 'message':
        await this.#message(response, step);
        return;
      case 'expect_input': {
        const problem = unmetExpectation(step, this.#host.received());
        if (problem) {
          this.#failScript(
            response,
            'mock_expectation_failed',
            `MockRealtimeModel: response ${response.id}: ${problem}.`,
          );
        }
        return;
      }
    }
  }

  #failScript(
    response: MockResponse,
    code: 'mock_script_exhausted' | 'mock_expectation_failed',
    message: string,
  ): void {
    response.failed = true;
    this.#host.link.scriptFailed(code, message);
    this.#host.emit({ type: 'error', code, message });
  }

  async #message(
    response: MockResponse,
    step: Extract<MockResponseStep, { type: 'message' }>,
  ): Promise<void> {
    const text = step.text ?? '';
    const itemId = step.itemId ?? this.#host.link.nextId('item');
    const spoken = response.modalities.includes('audio') && this.#host.link.capabilities.audioOutput;
    const item: MessageItem = {
      type: 'message',
      itemId,
      role: 'assistant',
      content: spoken ? [{ type: 'audio', transcript: '' }] : [{ type: 'text', text: '' }],
      status: 'in_progress',
    };
    const previousItemId = !response.ephemeral ? this.#host.addItem(item) : null;
    if (step.announceEarly) {
      this.#host.emit({ type: 'item_added', item: { ...item, content: [] }, previousItemId });
    }
    this.#host.emit({ type: 'message_started', responseId: response.id, itemId });
    const deltas = textDeltas(text);
    let said = '';
    if (spoken) {
      const chunks = audioChunks(text, step.audio, this.#host.link.outputBytesPerMs);
      this.#host.audioReceived(itemId, 0);
      let bytes = 0;
      for (let i = 0; i < Math.max(chunks.length, deltas.length); i++) {
        const delta = deltas[i];
        if (delta !== undefined) {
          said += delta;
          if (step.transcriptDeltas !== false)
            this.#host.emit({ type: 'transcript_delta', responseId: response.id, itemId, delta });
        }
        const chunk = chunks[i];
        if (chunk !== undefined) {
          bytes += chunk.byteLength;
          this.#host.audioReceived(itemId, Math.floor(bytes / this.#host.link.outputBytesPerMs));
          this.#host.emit({ type: 'audio_delta', responseId: response.id, itemId, audio: chunk.slice() });
          if (step.pauseAfterChunks === i + 1) await this.#pause(response);
        }
        if (response.cancelled || this.#host.stopped()) break;
      }
      if (!response.cancelled) {
        this.#host.emit({ type: 'audio_done', responseId: response.id, itemId });
        this.#host.emit({ type: 'transcript_done', responseId: response.id, itemId, transcript: said });
      }
      item.content = [{ type: 'audio', transcript: said }];
    } else {
      for (const delta of deltas) {
        said += delta;
        this.#host.emit({ type: 'text_delta', responseId: response.id, itemId, delta });
      }
      item.content = [{ type: 'text', text: said }];
    }
    item.status = response.cancelled ? 'incomplete' : 'completed';
    this.#host.emit({ type: 'message_done', responseId: response.id, itemId, item: structuredClone(item) });
  }

  #functionCall(response: MockResponse, step: Extract<MockResponseStep, { type: 'function_call' }>): void {
    const callId = step.callId ?? this.#host.link.nextId('call');
    const itemId = this.#host.link.nextId('item');
    const args = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments ?? {});
    const item: RealtimeItem = { type: 'function_call', itemId, callId, name: step.name, arguments: args };
    const previousItemId = !response.ephemeral ? this.#host.addItem(item) : null;
    if (step.announceEarly) this.#host.emit({ type: 'item_added', item: { ...item }, previousItemId });
    response.callIds.push(callId);
    this.#host.emit({
      type: 'function_call',
      ...(!step.withoutResponseId && { responseId: response.id }),
      itemId,
      callId,
      name: step.name,
      arguments: args,
    });
  }

  #pause(response: MockResponse): Promise<void> {
    if (response.cancelled) return Promise.resolve();
    response.paused = true;
    return new Promise<void>((resolve) => this.#onWake(response, () => resolve())).finally(() => {
      response.paused = false;
    });
  }

  #delay(response: MockResponse, ms: number): Promise<void> {
    const clock = this.#host.link.clock;
    if (!clock) {
      throw new UserError('A delay step needs a clock: new MockRealtimeModel({ clock }).');
    }
    return new Promise<void>((resolve) => {
      const timer = clock.setTimeout(() => {
        response.wake = undefined;
        resolve();
      }, ms);
      this.#onWake(response, () => {
        clock.clearTimeout(timer);
        resolve();
      });
    });
  }

  #onWake(response: MockResponse, resolve: (value: undefined) => void): void {
    const previous = response.wake;
    response.wake = () => {
      previous?.();
      resolve(undefined);
    };
  }

  #wake(response: MockResponse): void {
    const wake = response.wake;
    response.wake = undefined;
    wake?.();
  }

  #cancel(response: MockResponse, reason: RealtimeResponseEndReason): void {
    if (response.done || response.cancelled) return;
    response.cancelled = true;
    response.cancelReason = reason;
    this.#wake(response);
    if (this.#active === response) this.#active = undefined;
  }

  #finish(response: MockResponse, script: MockResponseScript | undefined): void {
    response.done = true;
    response.status = response.cancelled
      ? 'cancelled'
      : response.failed
        ? 'failed'
        : (script?.status ?? 'completed');
    this.#responses.delete(response.id);
    if (this.#active === response) this.#active = undefined;
    if (this.#host.stopped()) return;
    this.#host.emit({
      type: 'response_done',
      responseId: response.id,
      status: response.status,
      ephemeral: response.ephemeral,
      ...(response.clientRequestId !== undefined && { clientRequestId: response.clientRequestId }),
      ...(script?.usage && {
        usage: { ...script.usage, totalTokens: script.usage.inputTokens + script.usage.outputTokens },
      }),
      ...(response.cancelReason !== undefined && { reason: response.cancelReason }),
    });
    this.#completedWithCalls.set(response.id, response);
    this.#maybeAutoReply(response);
  }

  /** A tool output arrived: with `autoToolResponseGeneration`, may start the follow-up. */
  toolOutputReceived(callId: string): void {
    this.#outputs.add(callId);
    for (const response of this.#completedWithCalls.values()) {
      if (response.callIds.includes(callId)) this.#maybeAutoReply(response);
    }
  }

  #maybeAutoReply(response: MockResponse): void {
    if (response.callIds.length === 0 || response.status !== 'completed') {
      this.#completedWithCalls.delete(response.id);
      return;
    }
    if (!this.#host.link.capabilities.autoToolResponseGeneration || response.autoReplied) return;
    if (!response.callIds.every((id) => this.#outputs.has(id)) || this.#active || !this.#host.open()) return;
    response.autoReplied = true;
    this.#completedWithCalls.delete(response.id);
    this.#start(undefined, false, undefined, undefined);
  }
}
