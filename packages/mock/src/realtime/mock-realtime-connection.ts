import {
  audioStreamBytesPerMs,
  type Clock,
  ConnectionClosedError,
  type CreateResponseCommand,
  declaresCapability,
  PCM16_BYTES_PER_MS,
  type RealtimeAudioStreamFormat,
  type RealtimeCapability,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeEvent,
  type RealtimeItem,
  type RealtimeSessionConfig,
  UserError,
} from '@parley/core';
import { type LongTimeout, optionKeys, setLongTimeout } from '@parley/core/internal';
import { MIN_COMMIT_MS } from '../constants.js';
import { capabilityOff, checkConfig } from './check-config.js';
import { CommandLog } from './command-log.js';
import { type MockModelLink, MockResponsePlayer } from './mock-response-player.js';
import { type MockResponseInput, textDeltas, toScript } from './script.js';

export type { MockModelLink } from './mock-response-player.js';

/** Options of {@link MockRealtimeConnection.userStartsSpeaking} (none yet; unknown keys are refused). */
export type UserStartsSpeakingOptions = Record<string, never>;

/** Options of {@link MockRealtimeConnection.userStopsSpeaking}. */
export interface UserStopsSpeakingOptions {
  /** What the user said (transcribed where `userTranscription` is on). */
  transcript?: string;
  /** `false`: the provider starts no response, whatever turn detection says. */
  respond?: boolean;
}

const STARTS_SPEAKING_OPTIONS = optionKeys<UserStartsSpeakingOptions>('userStartsSpeaking() options', {});
const STOPS_SPEAKING_OPTIONS = optionKeys<UserStopsSpeakingOptions>('userStopsSpeaking() options', {
  transcript: true,
  respond: true,
});

/** Options of {@link MockRealtimeConnection.failNextSend}. */
export interface FailNextSendOptions {
  /**
   * `'refused'` (default): the connection refuses the command before writing it and stays open, as an adapter
   * does with a command it cannot express. `'write'`: writing it to the transport fails, which breaks the
   * connection: it closes, `send` throws a `ConnectionClosedError` (with `error` as its cause), and
   * `connection_status: disconnected` follows after `send` returned.
   */
  failure?: 'refused' | 'write';
  /** What `send` throws (`'refused'`) or what the transport reported (`'write'`, the cause). */
  error?: Error;
}

const FAIL_NEXT_SEND_OPTIONS = optionKeys<FailNextSendOptions>('failNextSend() options', {
  failure: true,
  error: true,
});

/** What happens to a scripted `createResponse`: dropped silently, or refused with an error. */
type ResponseRefusal =
  | { kind: 'drop' }
  | { kind: 'refuse'; code: string; message: string; echoRequestId: boolean };

/** A session limit: the connection expires `ms` after it opened, timed on `clock`. */
export interface MockSessionLifetime {
  ms: number;
  clock: Clock;
}

/**
 * One live connection of a {@link MockRealtimeModel}: keeps the conversation, enforces one active
 * default-conversation response, plays scripted responses, and records every command. Events are
 * delivered asynchronously (in microtasks), in order, like a real provider's.
 */
export class MockRealtimeConnection implements RealtimeConnection {
  readonly #commands = new CommandLog();
  /** Every command received, in order (including refused ones). */
  readonly commands: RealtimeCommand[] = this.#commands.commands;
  /** Errors thrown by event listeners (they do not stop delivery). */
  readonly listenerErrors: unknown[] = [];
  readonly #link: MockModelLink;
  readonly #listeners = new Set<(event: RealtimeEvent) => void>();
  readonly #queue: RealtimeEvent[] = [];
  #drainScheduled = false;
  #status: 'open' | 'closed' = 'open';
  #clientClosed = false;
  #closeCalls = 0;
  #closeFailure: unknown;
  #config: RealtimeSessionConfig;
  readonly #conversation: RealtimeItem[] = [];
  readonly #audioMs = new Map<string, number>();
  /** `servicePlayback`: the response the service is playing, with the message it is on. */
  #servicePlaying: { responseId: string; itemId: string } | undefined;
  /** `servicePlayback`: what the listener heard of a message, where a test said it is behind the audio sent. */
  readonly #serviceHeardMs = new Map<string, number>();
  readonly #player: MockResponsePlayer;
  #inputAudioBytes = 0;
  /** Bytes per millisecond of the input audio (PCM16 24 kHz unless the model declares its formats). */
  readonly #inputBytesPerMs: number;
  #speechItemId: string | undefined;
  #nextCommitTranscript: string | undefined;
  readonly #refusals: ResponseRefusal[] = [];
  readonly #sendFailures = new Map<RealtimeCommand['type'], { failure: 'refused' | 'write'; error: Error }>();
  #expiryTimer: LongTimeout | undefined;
  /** The audio formats the model was given (`audioFormats`), if any. */
  readonly audioFormats: { input: RealtimeAudioStreamFormat; output: RealtimeAudioStreamFormat } | undefined;
  /** When the provider ends this session (epoch ms), if the model was given `sessionLifetimeMs`. */
  readonly expiresAt: number | undefined;
  /** `true` when it was opened with a resume token it knew: its conversation is the one that token kept. */
  readonly resumed: boolean;
  /** Content commands (`createItem`, `sendToolOutput`, `appendContext`) received, counted for resume tokens. */
  #contentCommands = 0;

  readonly #closedByClient: Promise<void>;
  #resolveClosed!: () => void;

  readonly #rawEvents: boolean;

  constructor(
    link: MockModelLink,
    config: RealtimeSessionConfig,
    lifetime?: MockSessionLifetime,
    rawEvents = false,
    resumedConversation?: readonly RealtimeItem[],
    audioFormats?: MockRealtimeConnection['audioFormats'],
  ) {
    this.#link = link;
    this.resumed = resumedConversation !== undefined;
    if (resumedConversation) this.#conversation.push(...structuredClone(resumedConversation));
    this.audioFormats = audioFormats;
    this.#inputBytesPerMs = audioFormats ? audioStreamBytesPerMs(audioFormats.input) : PCM16_BYTES_PER_MS;
    this.#rawEvents = rawEvents;
    this.#config = { ...config };
    if (lifetime) {
      this.expiresAt = Date.now() + lifetime.ms;
      this.#expiryTimer = setLongTimeout(
        lifetime.clock,
        () => {
          this.#expiryTimer = undefined;
          this.expire();
        },
        lifetime.ms,
      );
    }
    this.#closedByClient = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#player = new MockResponsePlayer({
      link,
      emit: (event) => {
        if (event.type === 'audio_delta') this.#servicePlays(event.responseId, event.itemId);
        this.#emit(event);
        if (event.type === 'response_done') this.#servicePlayed(event.responseId);
        // Like a service that offers resumption once a turn is over.
        if (event.type === 'response_done' && !event.ephemeral) this.#offerResume();
      },
      addItem: (item) => {
        this.#conversation.push(item);
        return this.#previousId(item);
      },
      audioReceived: (itemId, ms) => this.#audioMs.set(itemId, ms),
      outputModalities: () => this.#config.outputModalities,
      stopped: () => this.#clientClosed,
      open: () => this.#status === 'open',
      received: () => ({ conversation: this.conversation, commands: [...this.commands] }),
    });
  }

  // ── RealtimeConnection ─────────────────────────────────────────────────────────────────────

  get status(): 'open' | 'closed' {
    return this.#status;
  }

  /** Whether the mock plays the audio itself, as a WebRTC or SIP service does (the `servicePlayback` capability). */
  get servicePlayback(): boolean {
    return declaresCapability(this.#link.capabilities, 'servicePlayback');
  }

  /**
   * `servicePlayback`: the listener has heard only the first `ms` of message `itemId` (by default the mock's service
   * plays audio as it sends it, so a clear cuts a message at all the audio sent of it).
   */
  serviceHeard(itemId: string, ms: number): void {
    this.#serviceHeardMs.set(itemId, ms);
  }

  send(command: RealtimeCommand): void {
    if (this.#status === 'closed') {
      throw new ConnectionClosedError(
        `Cannot send "${command.type}": the mock realtime connection is closed.`,
      );
    }
    const failure = this.#sendFailures.get(command.type);
    if (failure) {
      this.#sendFailures.delete(command.type);
      if (failure.failure === 'refused') throw failure.error;
      this.disconnect(`writing "${command.type}" failed: ${failure.error.message}`);
      throw new ConnectionClosedError(
        `Writing "${command.type}" to the mock transport failed (${failure.error.message}); the command was not sent.`,
        { cause: failure.error },
      );
    }
    this.#link.recorded(command);
    this.#commands.record(command);
    const type = command.type;
    if (type === 'createItem' || type === 'sendToolOutput' || type === 'appendContext')
      this.#contentCommands++;
    this.#handle(command);
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    const entry = (event: RealtimeEvent) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  async close(): Promise<void> {
    this.#closeCalls++;
    const failure = this.#closeFailure;
    if (failure !== undefined) {
      this.#closeFailure = undefined;
      throw failure;
    }
    this.#clearExpiry();
    this.#resolveClosed();
    this.#clientClosed = true;
    this.#status = 'closed';
    this.#queue.length = 0;
    this.#player.cancelAll('client_cancelled');
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  /** How many times `close()` was called (a session must call it exactly once). */
  get closeCalls(): number {
    return this.#closeCalls;
  }

  /** Resolves once the client called `close()`. */
  whenClosedByClient(): Promise<void> {
    return this.#closedByClient;
  }

  /** Subscribed listeners (a released session leaves none). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** The effective session configuration (initial config merged with every `updateSession`). */
  get config(): Readonly<RealtimeSessionConfig> {
    return { ...this.#config };
  }

  /** What the mock confirmed: the connect configuration with every accepted update (as `config`). */
  get confirmedConfig(): Readonly<RealtimeSessionConfig> {
    return this.config;
  }

  /** The provider's conversation: what the model would remember. Out-of-band responses never enter it. */
  get conversation(): readonly RealtimeItem[] {
    return this.#conversation.map((item) => structuredClone(item));
  }

  /** The active default-conversation response, if any. */
  get activeResponseId(): string | undefined {
    return this.#player.activeResponseId;
  }

  /** Responses currently held at a `pause` step. */
  get pausedResponseIds(): string[] {
    return this.#player.pausedResponseIds;
  }

  /** Resolves once `count` recorded commands match `predicate` (counting earlier ones). */
  waitForCommands(predicate: (command: RealtimeCommand) => boolean, count = 1): Promise<RealtimeCommand[]> {
    return this.#commands.waitFor(predicate, count);
  }

  // ── test drivers ───────────────────────────────────────────────────────────────────────────

  /** Continues a response held at a `pause` step (the only paused one when `responseId` is omitted). */
  resume(responseId?: string): void {
    const paused = this.#player.pausedResponseIds.filter(
      (id) => responseId === undefined || id === responseId,
    );
    if (paused.length !== 1) {
      throw new UserError(
        responseId === undefined
          ? `resume() needs a responseId: ${paused.length} responses are paused.`
          : `Response ${responseId} is not paused.`,
      );
    }
    this.#player.resume(paused[0]!);
  }

  /** Starts a response the provider initiates itself (like server VAD), playing `script` or the next queued one. */
  startResponse(script?: MockResponseInput): string {
    this.#requireOpen();
    const active = this.#player.activeResponseId;
    if (active) throw new UserError(`A default-conversation response (${active}) is already active.`);
    return this.#player.start(
      undefined,
      false,
      undefined,
      script === undefined
        ? undefined
        : toScript(script, { compound: declaresCapability(this.#link.capabilities, 'compoundResponses') }),
    );
  }

  /**
   * The user starts speaking: `input_speech_started`, and (unless turn detection says
   * `interruptResponse: false`) the active response is cancelled with reason `user_turn`.
   */
  userStartsSpeaking(options: UserStartsSpeakingOptions = {}): void {
    STARTS_SPEAKING_OPTIONS.check(options);
    this.#requireTurnDetection('userStartsSpeaking');
    this.#speechItemId = this.#link.nextId('item');
    this.#emit({ type: 'input_speech_started' });
    if (this.#config.turnDetection?.interruptResponse !== false) {
      this.#player.cancel(undefined, 'user_turn');
      // A service that plays the audio also stops it at a barge-in, and cuts the message where it stopped.
      if (this.servicePlayback) this.#clearServicePlayback();
    }
  }

  /**
   * The user stops speaking: speech stopped, the audio is committed as a user item, `transcript` is
   * transcribed (where `userTranscription` is on), and, unless turn detection says
   * `createResponse: false` or `respond` is `false`, the provider starts a response.
   */
  userStopsSpeaking(options: UserStopsSpeakingOptions = {}): void {
    STOPS_SPEAKING_OPTIONS.check(options);
    this.#requireTurnDetection('userStopsSpeaking');
    const itemId = this.#speechItemId ?? this.#link.nextId('item');
    this.#speechItemId = undefined;
    this.#emit({ type: 'input_speech_stopped' });
    this.#inputAudioBytes = 0;
    this.#commitUserAudio(itemId, options.transcript);
    const autoRespond = this.#config.turnDetection?.createResponse !== false && options.respond !== false;
    if (autoRespond && !this.#player.activeResponseId)
      this.#player.start(undefined, false, undefined, undefined);
  }

  /** The transcript the next `commitInputAudio` gets (where `userTranscription` is on). */
  transcribeNextCommit(text: string): void {
    this.#nextCommitTranscript = text;
  }

  /** The next `createResponse` is recorded and then ignored: no start, no error (a lost request). */
  dropNextResponseRequest(): void {
    this.#refusals.push({ kind: 'drop' });
  }

  /**
   * The next `createResponse` is refused with `code`, echoing its `clientRequestId` unless `echoRequestId` is
   * `false` (like a provider whose collision error names no request).
   */
  refuseNextResponse(
    code = 'server_error',
    message = 'The mock refused this response.',
    options: { echoRequestId?: boolean } = {},
  ): void {
    this.#requireRecoverableErrors('refuseNextResponse()');
    this.#refusals.push({ kind: 'refuse', code, message, echoRequestId: options.echoRequestId ?? true });
  }

  /**
   * The next command of `type` is not sent: the provider never receives it (it is not recorded). By default the
   * connection refuses it and stays open (`send` throws `error`); with `failure: 'write'` the transport fails under
   * it and the connection is lost (see {@link FailNextSendOptions}).
   */
  failNextSend(type: RealtimeCommand['type'], options: FailNextSendOptions = {}): void {
    FAIL_NEXT_SEND_OPTIONS.check(options);
    const failure = options.failure ?? 'refused';
    const error =
      options.error ??
      new Error(
        failure === 'write'
          ? `Writing "${type}" to the socket failed.`
          : `The connection refused "${type}" before writing it.`,
      );
    this.#sendFailures.set(type, { failure, error });
  }

  /** The next `close()` rejects with `error` and leaves the connection as it was (open, if it was). */
  failNextClose(error: unknown = new Error('Closing the socket failed.')): void {
    this.#closeFailure = error;
  }

  /**
   * The provider withdraws function calls it made, as a service does after the user interrupted the response that
   * made them: one `function_call_cancelled` per call id.
   */
  cancelToolCalls(...callIds: string[]): void {
    this.#requireOpen();
    if (!declaresCapability(this.#link.capabilities, 'toolCallCancellation')) {
      throw new UserError('cancelToolCalls() needs the toolCallCancellation capability on the mock.');
    }
    for (const callId of callIds) this.#emit({ type: 'function_call_cancelled', callId });
  }

  /**
   * Offers a resume token for the conversation as it is now (where `sessionResumption` is on; the mock does so by
   * itself after each default-conversation response): `resume_token`, counting every content command received.
   * Returns the token.
   */
  issueResumeToken(): string {
    this.#requireOpen();
    const token = this.#offerResume();
    if (token === undefined) {
      throw new UserError('issueResumeToken() needs the sessionResumption capability on the mock.');
    }
    return token;
  }

  #requireRecoverableErrors(method: string): void {
    if (declaresCapability(this.#link.capabilities, 'recoverableErrors')) return;
    throw new UserError(
      `${method} needs the recoverableErrors capability on the mock: without it every provider failure ends the connection (failFatally()).`,
    );
  }

  #offerResume(): string | undefined {
    if (!declaresCapability(this.#link.capabilities, 'sessionResumption')) return undefined;
    const token = this.#link.keepForResume(this.#conversation);
    this.#emit({ type: 'resume_token', token, contentCommands: this.#contentCommands });
    return token;
  }

  /**
   * Emits a provider error that answers no request. One that leaves the connection usable (not `fatal`) needs the
   * `recoverableErrors` capability on the mock (without it, use {@link failFatally}).
   */
  emitError(error: { code: string; message?: string; fatal?: boolean }): void {
    this.#requireOpen();
    if (error.fatal !== true) this.#requireRecoverableErrors('emitError()');
    this.#emit({
      type: 'error',
      code: error.code,
      message: error.message ?? `Mock provider error ${error.code}.`,
      ...(error.fatal !== undefined && { fatal: error.fatal }),
    });
  }

  /**
   * Ends the session as a provider does at its time limit: `session_expired`, then a disconnect. Happens by itself after `sessionLifetimeMs` (see {@link MockRealtimeModel}).
   */
  expire(): void {
    if (this.#status === 'closed') return;
    const message = 'Your session hit the maximum duration.';
    this.#emit({ type: 'session_expired', message });
    this.disconnect(message);
  }

  /**
   * The provider ends the connection with a failure it documents as fatal (a protocol that reports it only as a
   * close code is normalized the same way): an `error` with `fatal: true`, then `connection_status: disconnected`.
   */
  failFatally(error: { code: string; message?: string }): void {
    this.#requireOpen();
    const message = error.message ?? `The mock provider ended the connection: ${error.code}.`;
    this.#emit({ type: 'error', code: error.code, message, fatal: true });
    this.disconnect(message);
  }

  /** The provider drops the connection: `connection_status: disconnected`, then closed. */
  disconnect(reason = 'mock_disconnect'): void {
    if (this.#status === 'closed') return;
    this.#clearExpiry();
    this.#emit({ type: 'connection_status', status: 'disconnected', reason });
    this.#status = 'closed';
    this.#player.cancelAll('connection_lost');
  }

  /**
   * The transport stops being open without saying so, as a socket closing with no close acknowledgement does:
   * `status` turns `closed`, nothing more arrives (not even `connection_status`, and events not yet delivered are
   * lost), and every later `send` throws `ConnectionClosedError`. Only the client notices, when it next looks.
   */
  stopSilently(): void {
    if (this.#status === 'closed') return;
    this.#clearExpiry();
    this.#status = 'closed';
    this.#queue.length = 0;
    this.#player.cancelAll('connection_lost');
  }

  /** Emits any event as is: an escape hatch for provider behaviour the scripts cannot express. */
  emit(event: RealtimeEvent): void {
    this.#emit(event);
  }

  // ── command handling ───────────────────────────────────────────────────────────────────────

  #handle(command: RealtimeCommand): void {
    switch (command.type) {
      case 'updateSession':
        this.#updateSession(command);
        return;
      case 'appendInputAudio':
        this.#inputAudioBytes += command.audio.byteLength;
        return;
      case 'commitInputAudio': {
        if (this.#inputAudioBytes < MIN_COMMIT_MS * this.#inputBytesPerMs) {
          const ms = Math.floor(this.#inputAudioBytes / this.#inputBytesPerMs);
          this.#error(
            command,
            'input_audio_buffer_commit_empty',
            `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${ms}ms of audio.`,
          );
          return;
        }
        this.#inputAudioBytes = 0;
        const transcript = this.#nextCommitTranscript;
        this.#nextCommitTranscript = undefined;
        this.#commitUserAudio(this.#link.nextId('item'), transcript);
        // A provider for which the end of the user's turn is the request answers it by itself.
        if (
          declaresCapability(this.#link.capabilities, 'commitStartsResponse') &&
          !this.#player.activeResponseId
        )
          this.#player.start(undefined, false, undefined, undefined);
        return;
      }
      case 'createItem':
        this.#createItem(command);
        return;
      case 'deleteItem': {
        if (!this.#capable(command, 'mutableChatContext')) return;
        const index = this.#conversation.findIndex((item) => item.itemId === command.itemId);
        if (index < 0) {
          this.#error(
            command,
            'item_delete_invalid_item_id',
            `Error deleting item: the item with id '${command.itemId}' does not exist.`,
          );
          return;
        }
        this.#conversation.splice(index, 1);
        this.#emit({ type: 'item_deleted', itemId: command.itemId });
        return;
      }
      case 'truncateItem':
        this.#truncate(command);
        return;
      case 'clearOutputAudio':
        if (!this.#capable(command, 'servicePlayback')) return;
        this.#clearServicePlayback();
        return;
      case 'createResponse':
        this.#createResponse(command);
        return;
      case 'cancelResponse': {
        if (!this.#player.cancel(command.responseId, 'client_cancelled')) {
          this.#error(command, 'response_cancel_not_active', 'Cancellation failed: no active response found');
        }
        return;
      }
      case 'sendToolOutput': {
        const item: RealtimeItem = {
          type: 'function_call_output',
          itemId: this.#link.nextId('item'),
          callId: command.callId,
          output: command.output,
        };
        this.#conversation.push(item);
        this.#acknowledge(item);
        this.#player.toolOutputReceived(command.callId);
        return;
      }
      case 'appendContext':
        this.#error(command, 'capability_not_supported', 'The mock realtime model has no context appends.');
        return;
      case 'sendDtmf':
        this.#error(command, 'capability_not_supported', 'The mock realtime model carries no phone call.');
        return;
      case 'sendHostedToolApproval':
        // The decision is recorded like every command; a test plays the hosted call with `emit()`.
        if (!this.#link.capabilities.hostedTools?.includes('mcp')) {
          this.#error(
            command,
            'capability_not_supported',
            "This mock provider runs no hosted tools (create it with capabilities: { hostedTools: ['mcp'] }).",
          );
        }
        return;
    }
  }

  #updateSession(command: Extract<RealtimeCommand, { type: 'updateSession' }>): void {
    const { config } = command;
    const problem = checkConfig(config, this.#link.capabilities, true);
    if (problem) {
      this.#error(command, 'capability_not_supported', problem);
      return;
    }
    const defined = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
    this.#config = { ...this.#config, ...defined };
  }

  #createItem(command: Extract<RealtimeCommand, { type: 'createItem' }>): void {
    const item = {
      ...command.item,
      itemId: command.item.itemId ?? this.#link.nextId('item'),
    } as RealtimeItem;
    // A provider where new content interrupts the model: a user message cuts the response in progress.
    if (
      item.type === 'message' &&
      item.role === 'user' &&
      !declaresCapability(this.#link.capabilities, 'contentDuringResponse')
    )
      this.#player.cancel(undefined, 'user_turn');
    this.#conversation.push(item);
    this.#acknowledge(item);
    if (item.type === 'function_call_output') this.#player.toolOutputReceived(item.callId);
  }

  #truncate(command: Extract<RealtimeCommand, { type: 'truncateItem' }>): void {
    if (!this.#capable(command, 'messageTruncation')) return;
    const item = this.#conversation.find((i) => i.itemId === command.itemId);
    if (!item) {
      this.#error(
        command,
        'item_truncate_invalid_item_id',
        `Error truncating item: the item with id '${command.itemId}' does not exist.`,
      );
      return;
    }
    const received = this.#audioMs.get(command.itemId);
    if (item.type !== 'message' || item.role !== 'assistant' || received === undefined) {
      this.#error(command, 'invalid_value', 'Only model output audio messages can be truncated');
      return;
    }
    if (!Number.isInteger(command.heardMs) || command.heardMs < 0) {
      this.#error(
        command,
        'invalid_value',
        `Invalid audio_end_ms: ${command.heardMs}. Use whole milliseconds >= 0.`,
      );
      return;
    }
    if (command.heardMs > received) {
      this.#error(
        command,
        'invalid_value',
        `Audio content of ${received}ms is already shorter than ${command.heardMs}ms`,
      );
      return;
    }
    this.#audioMs.set(command.itemId, command.heardMs);
    item.content = item.content.map((part) =>
      part.type === 'audio' ? { type: 'audio', transcript: '' } : part,
    );
    this.#emit({ type: 'item_truncated', itemId: command.itemId });
  }

  /** `servicePlayback`: the first audio of a response starts the service's playback of it. */
  #servicePlays(responseId: string, itemId: string): void {
    if (!this.servicePlayback) return;
    if (this.#servicePlaying?.responseId !== responseId) {
      this.#emit({ type: 'output_audio_started', responseId });
    }
    this.#servicePlaying = { responseId, itemId };
  }

  /** `servicePlayback`: a finished response has played (the mock plays as it sends). */
  #servicePlayed(responseId: string): void {
    if (this.#servicePlaying?.responseId !== responseId) return;
    this.#servicePlaying = undefined;
    this.#emit({ type: 'output_audio_stopped', responseId });
  }

  /** `clearOutputAudio`: the service stops playing and cuts the message being heard where the listener stopped. */
  #clearServicePlayback(): void {
    const playing = this.#servicePlaying;
    this.#servicePlaying = undefined;
    if (playing === undefined) {
      this.#emit({ type: 'output_audio_cleared' });
      return;
    }
    const sent = this.#audioMs.get(playing.itemId) ?? 0;
    const heard = Math.min(sent, this.#serviceHeardMs.get(playing.itemId) ?? sent);
    this.#audioMs.set(playing.itemId, heard);
    this.#emit({ type: 'item_truncated', itemId: playing.itemId, heardMs: heard });
    this.#emit({ type: 'output_audio_cleared', responseId: playing.responseId });
  }

  #createResponse(command: CreateResponseCommand): void {
    if (command.ephemeral && !this.#capable(command, 'ephemeralResponse')) return;
    const refusal = this.#refusals.shift();
    if (refusal?.kind === 'drop') return;
    if (refusal?.echoRequestId === false) {
      this.#emit({ type: 'error', code: refusal.code, message: refusal.message, commandType: command.type });
      return;
    }
    if (refusal) {
      this.#error(command, refusal.code, refusal.message);
      return;
    }
    const active = this.#player.activeResponseId;
    if (!command.ephemeral && active) {
      this.#error(
        command,
        'conversation_already_has_active_response',
        `Conversation already has an active response in progress: ${active}. Wait until the response is finished before creating a new one.`,
      );
      return;
    }
    // Without per-response instructions they can only go into the conversation, where they stay.
    if (
      command.instructions !== undefined &&
      !command.ephemeral &&
      !declaresCapability(this.#link.capabilities, 'responseInstructions')
    ) {
      this.#conversation.push({
        type: 'message',
        itemId: this.#link.nextId('item'),
        role: 'system',
        content: [{ type: 'text', text: command.instructions }],
      });
    }
    this.#player.start(command.clientRequestId, command.ephemeral, undefined, undefined);
  }

  // ── helpers ────────────────────────────────────────────────────────────────────────────────

  #commitUserAudio(itemId: string, transcript: string | undefined): void {
    const transcribe =
      transcript !== undefined &&
      this.#link.capabilities.userTranscription &&
      this.#config.inputTranscription !== null;
    const item: RealtimeItem = {
      type: 'message',
      itemId,
      role: 'user',
      content: [{ type: 'audio', ...(transcribe && { transcript }) }],
      status: 'completed',
    };
    this.#conversation.push(item);
    this.#emit({ type: 'input_audio_committed', itemId });
    this.#acknowledge(item);
    if (transcribe) {
      for (const delta of textDeltas(transcript)) {
        this.#emit({ type: 'input_transcription', itemId, text: delta, final: false });
      }
      this.#emit({ type: 'input_transcription', itemId, text: transcript, final: true });
    }
  }

  /** Announces an item the client added (`item_added`), unless the mock plays a provider without acknowledgements. */
  #acknowledge(item: RealtimeItem): void {
    if (!declaresCapability(this.#link.capabilities, 'contentAcknowledgements')) return;
    this.#emit({ type: 'item_added', item: structuredClone(item), previousItemId: this.#previousId(item) });
  }

  #previousId(item: RealtimeItem): string | null {
    const index = this.#conversation.indexOf(item);
    return index > 0 ? this.#conversation[index - 1]!.itemId : null;
  }

  #capable(command: RealtimeCommand, capability: RealtimeCapability): boolean {
    if (this.#link.capabilities[capability]) return true;
    this.#error(
      command,
      'capability_not_supported',
      capabilityOff(capability, `this ${command.type} command`),
    );
    return false;
  }

  #error(command: RealtimeCommand, code: string, message: string): void {
    this.#emit({
      type: 'error',
      code,
      message,
      commandType: command.type,
      ...((command.type === 'createResponse' || command.type === 'appendContext') && {
        clientRequestId: command.clientRequestId,
      }),
    });
  }

  #clearExpiry(): void {
    this.#expiryTimer?.cancel();
    this.#expiryTimer = undefined;
  }

  #requireOpen(): void {
    if (this.#status === 'closed') throw new UserError('The mock realtime connection is closed.');
  }

  #requireTurnDetection(action: string): void {
    this.#requireOpen();
    if (!this.#link.capabilities.turnDetection || this.#config.turnDetection === null) {
      throw new UserError(
        `${action}() needs turn detection: the mock was created with turnDetection: false or the session turned it off.`,
      );
    }
  }

  #emit(event: RealtimeEvent): void {
    if (this.#status === 'closed') return;
    // The mock's "original" event is the event itself: a copy, so the two are not the same object.
    if (this.#rawEvents) this.#queue.push({ type: 'raw_event', event: { ...event } });
    this.#queue.push(event);
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    queueMicrotask(() => this.#drain());
  }

  #drain(): void {
    this.#drainScheduled = false;
    while (this.#queue.length > 0 && !this.#clientClosed) {
      const event = this.#queue.shift()!;
      for (const listener of [...this.#listeners]) {
        try {
          listener(event);
        } catch (error) {
          this.listenerErrors.push(error);
        }
      }
    }
  }
}
