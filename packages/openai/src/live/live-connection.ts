import {
  ConnectionClosedError,
  type ContextAppendKind,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeEvent,
  type RealtimeSessionConfig,
  type TimerHandle,
} from '@parley/core';
import {
  ConnectPhase,
  closeWait,
  frameText,
  listenToSocket,
  reportListenerError,
  type SocketEventMap,
  startKeepalive,
  upgradeStatus,
  type WebSocketLike,
} from '@parley/transport';
import { decodeBase64, encodeBase64 } from '../shared/base64.js';
import { isPlainObject } from '../shared/deep-merge.js';
import type { LiveAppendKind, LiveClientEvent } from '../shared/live-wire-events.js';
import type { LiveFunctionTool, LiveSessionConfig } from '../shared/live-wire-session.js';
import { rawEventOf } from '../shared/raw-event.js';
import { redactSecrets } from '../shared/redact.js';
import { BackendRelay } from './backend-relay.js';
import { OpenAILiveError } from './errors.js';
import { InputTurns } from './input-turns.js';
import type { ResolvedLiveOptions } from './options.js';
import { OutputSegmenter } from './output-segmenter.js';

type Listener = (event: RealtimeEvent) => void;
type Phase = 'connecting' | 'open' | 'closing' | 'closed';

const WIRE_KIND: Record<ContextAppendKind, LiveAppendKind> = {
  instruction: 'instructions',
  thought: 'thinking',
  commentary: 'commentary',
};
const SEAM_KIND: Record<string, ContextAppendKind> = {
  'session.instructions.appended': 'instruction',
  'session.thinking.appended': 'thought',
  'session.commentary.appended': 'commentary',
};
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** A session resource's `expires_at` (Unix seconds) as epoch milliseconds; `undefined` when it states none. */
function expiryOf(session: Record<string, unknown>): number | undefined {
  const seconds = session.expires_at;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** The `session.start` a seam configuration and the model's options produce. Only fields the service knows. */
export function toSessionStart(
  options: ResolvedLiveOptions,
  config: RealtimeSessionConfig,
): LiveSessionConfig {
  const tools: LiveFunctionTool[] = (config.tools ?? []).map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.parameters as Record<string, unknown>,
  }));
  const session: LiveSessionConfig = {
    model: options.model,
    audio: {
      format: { type: 'audio/pcm', rate: 24000 },
      ...(config.voice !== undefined && { output: { voice: config.voice } }),
    },
  };
  if (config.instructions) session.instructions = config.instructions;
  const ack = options.acknowledgementDelayMs;
  if (options.delegation === 'responses' && options.backend) {
    session.delegation = {
      type: 'responses',
      responses: {
        model: options.backend.model,
        ...(options.backend.instructions !== undefined && { instructions: options.backend.instructions }),
        ...(tools.length > 0 && { tools }),
      },
      ...(ack !== undefined && { acknowledgement_delay_ms: ack }),
    };
  } else {
    session.delegation = { type: 'client', ...(ack !== undefined && { acknowledgement_delay_ms: ack }) };
  }
  if (options.input.length > 0) {
    session.input = options.input.map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant', content: [{ type: 'output_text', text: m.text }] }
        : { role: m.role, content: [{ type: 'input_text', text: m.text }] },
    );
  }
  return session;
}

/** `WebSocket.OPEN`: the only ready state in which a frame is written rather than dropped. */
const SOCKET_OPEN = 1;

/**
 * One GPT-Live session over a primary WebSocket, as a seam connection. It owns the socket, its listeners and its
 * timers (connect timeout, the silence frames that keep the timeline moving while the app sends no audio, the close
 * wait) and releases them on every path out. A close by the owner sends `session.close` and waits for
 * `session.closed` (bounded by `closeTimeoutMs`); reconnecting means a new session.
 */
export class OpenAILiveConnection implements RealtimeConnection {
  readonly #socket: WebSocketLike;
  readonly #options: ResolvedLiveOptions;
  readonly #segmenter: OutputSegmenter;
  readonly #turns: InputTurns;
  readonly #backend: BackendRelay;
  readonly #requests = new Map<string, RealtimeCommand['type']>();
  readonly #silenceFrame: string;
  readonly #secrets: string[];
  /** Also emit each server event as a `raw_event` (the connect option `rawEvents`). */
  readonly #rawEvents: boolean;
  /** Removes the socket listeners and stops the keepalive. */
  readonly #detach: () => void;
  #stopKeepalive: () => void = () => {};
  #phase: Phase = 'connecting';
  #listeners: Listener[] = [];
  #backlog: RealtimeEvent[] | undefined = [];
  #ids = 0;
  #sessionId: string | undefined;
  #expiresAt: number | undefined;
  #instructions: string | undefined;
  readonly #connect: ConnectPhase;
  #silenceTimer: TimerHandle | undefined;
  #heardFromApp = false;
  #closed: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;
  #opened = false;
  #socketError: string | undefined;

  private constructor(
    socket: WebSocketLike,
    options: ResolvedLiveOptions,
    apiKey: string,
    rawEvents: boolean,
  ) {
    this.#socket = socket;
    this.#options = options;
    this.#secrets = [apiKey];
    this.#rawEvents = rawEvents;
    this.#connect = new ConnectPhase(options.clock);
    const emit = (event: RealtimeEvent) => this.#emit(event);
    this.#turns = new InputTurns({ emit, nextId: () => this.#nextId('item'), gapMs: options.turnGapMs });
    this.#segmenter = new OutputSegmenter({
      emit,
      nextId: (prefix) => this.#nextId(prefix),
      gapMs: options.turnGapMs,
      onSpeechStart: () => this.#turns.finish(),
    });
    this.#backend = new BackendRelay(emit, () =>
      this.#write({ type: 'response.create', event_id: this.#eventId('continue') }),
    );
    this.#silenceFrame = encodeBase64(new Uint8Array(options.silenceFrameMs * 48));
    const unlisten = listenToSocket(socket, {
      open: this.#onOpen,
      message: this.#onMessage,
      error: this.#onError,
      close: this.#onClose,
    });
    this.#detach = () => {
      this.#stopKeepalive();
      unlisten();
    };
  }

  /**
   * Wraps a socket being opened; sends `session.start` on open and resolves on `session.started`.
   * @internal `OpenAILiveModel.connect()` opens connections.
   */
  static open(
    socket: WebSocketLike,
    options: ResolvedLiveOptions,
    apiKey: string,
    connect: {
      config: RealtimeSessionConfig;
      signal?: AbortSignal | undefined;
      rawEvents?: boolean | undefined;
    },
  ): Promise<OpenAILiveConnection> {
    const { config, signal } = connect;
    const connection = new OpenAILiveConnection(socket, options, apiKey, connect.rawEvents === true);
    connection.#instructions = config.instructions;
    return connection.#waitUntilStarted(toSessionStart(options, config), signal).then(() => connection);
  }

  get status(): 'open' | 'closed' {
    return this.#phase === 'open' ? 'open' : 'closed';
  }

  /** The service's session id (`live_…`), once started. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get expiresAt(): number | undefined {
    return this.#expiresAt;
  }

  /** What this session has added to the Responses backend's input (128 items / 32 KB per session). */
  get backendBudget(): { items: number; bytes: number } {
    return this.#backend.used;
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    const backlog = this.#backlog;
    this.#backlog = undefined;
    if (backlog && backlog.length > 0) queueMicrotask(() => this.#dispatchAll(backlog));
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  send(command: RealtimeCommand): void {
    if (this.#phase !== 'open') {
      throw new ConnectionClosedError(`Cannot send "${command.type}": the GPT-Live connection is closed.`);
    }
    switch (command.type) {
      case 'appendInputAudio':
        this.#heardFromApp = true;
        this.#transmit(
          command.type,
          `{"type":"session.input_audio.append","audio":"${encodeBase64(command.audio)}"}`,
        );
        return;
      case 'commitInputAudio':
      case 'cancelResponse':
        // The voice model end-points and yields the floor by itself; there is nothing to commit or cancel.
        return;
      case 'appendContext': {
        const responses = this.#options.delegation === 'responses';
        this.#requests.set(command.clientRequestId, 'appendContext');
        this.#write({
          type: `session.${WIRE_KIND[command.kind]}.append`,
          event_id: command.clientRequestId,
          content: command.text,
          delegation_id: responses ? null : (command.delegationId ?? null),
        });
        return;
      }
      case 'sendToolOutput': {
        const result = this.#backend.toolOutput(command.callId, command.output);
        if ('refused' in result) {
          const message = result.refused;
          queueMicrotask(() =>
            this.#emit({
              type: 'error',
              code: 'response_input_buffer_full',
              message,
              commandType: 'sendToolOutput',
            }),
          );
          return;
        }
        this.#write({
          type: 'response.item.create',
          event_id: this.#eventId('sendToolOutput'),
          item: result.item as never,
        });
        this.#backend.outputSent(command.callId);
        return;
      }
      case 'createResponse':
        this.#refuse(
          command,
          'GPT-Live decides by itself when to speak: there is no response to request. Append commentary ' +
            '(appendContext) to make it say something.',
        );
        return;
      case 'updateSession': {
        const { instructions, tools } = command.config;
        if (instructions !== undefined && instructions !== this.#instructions) {
          this.#refuse(
            command,
            'GPT-Live instructions are fixed at session start; append instructions instead.',
          );
          return;
        }
        if (tools !== undefined && this.#options.delegation === 'responses') {
          this.#write({
            type: 'session.update',
            event_id: this.#eventId('updateSession'),
            session: {
              delegation: {
                type: 'responses',
                responses: {
                  tools: tools.map((t) => ({
                    type: 'function',
                    name: t.name,
                    description: t.description,
                    parameters: t.parameters as Record<string, unknown>,
                  })),
                },
              },
            },
          });
        }
        return;
      }
      case 'createItem':
      case 'deleteItem':
      case 'truncateItem':
        this.#refuse(command, `GPT-Live has no conversation items: "${command.type}" is not supported.`);
        return;
    }
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    if (this.#phase === 'closed') {
      this.#closed = Promise.resolve();
      return this.#closed;
    }
    const wasOpen = this.#phase === 'open';
    this.#phase = 'closing';
    this.#stopSilence();
    this.#closed = this.#waitForClose();
    if (wasOpen) this.#write({ type: 'session.close', event_id: this.#eventId('close') });
    else this.#closeSocket();
    return this.#closed;
  }

  // --- writing ---

  #nextId(prefix: string): string {
    return `${prefix}_${this.#sessionId ?? 'live'}_${++this.#ids}`;
  }

  #eventId(type: string): string {
    return `parley.${type}.${++this.#ids}`;
  }

  #write(event: LiveClientEvent): void {
    this.#transmit(event.type, JSON.stringify(event));
  }

  /**
   * Hands one frame to the socket. While open, a socket that is no longer open (it would drop the frame silently) or
   * whose write throws ends the connection at once, and the caller gets a {@link ConnectionClosedError}. Outside the
   * open phase (connecting, closing) a frame the socket cannot take is not written.
   */
  #transmit(what: string, frame: string): void {
    const state = this.#socket.readyState;
    let failure: string | undefined;
    if (state === SOCKET_OPEN) {
      try {
        this.#socket.send(frame);
        return;
      } catch (error) {
        failure = `writing "${what}" to the socket failed: ${redactSecrets(error instanceof Error ? error.message : String(error), this.#secrets)}`;
      }
    }
    if (this.#phase !== 'open') return;
    const reason =
      failure ?? `the socket stopped being open (readyState ${state}) before "${what}" was written`;
    this.#lost(reason, false);
    throw new ConnectionClosedError(`Cannot send "${what}": ${reason}; it was not sent.`);
  }

  /**
   * The socket stopped being usable while open (an error, a write that failed, a close that started without the
   * close event): the connection is closed now and the socket released without waiting for a closing handshake.
   * `connection_status: disconnected` is emitted now, or, from inside `send`, right after it returns.
   */
  #lost(reason: string, now: boolean): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'closed';
    this.#stopSilence();
    this.#segmenter.end();
    this.#turns.cut();
    this.#detach();
    const socket = this.#socket as WebSocketLike & { terminate?: () => void };
    try {
      if (socket.terminate) socket.terminate();
      else socket.close();
    } catch {
      // Already closing: nothing more to release.
    }
    const event: RealtimeEvent = {
      type: 'connection_status',
      status: 'disconnected',
      reason: redactSecrets(reason, this.#secrets),
    };
    if (now) this.#emit(event);
    else queueMicrotask(() => this.#emit(event));
  }

  /** Refuses a command the way a service does: with an `error` event after `send` returned. */
  #refuse(command: RealtimeCommand, message: string): void {
    queueMicrotask(() => this.#emitRefusal(command, message));
  }

  #emitRefusal(command: RealtimeCommand, message: string): void {
    if (this.#phase !== 'open') return;
    this.#emit({
      type: 'error',
      code: 'capability_not_supported',
      message,
      commandType: command.type,
      ...((command.type === 'createResponse' || command.type === 'appendContext') && {
        clientRequestId: command.clientRequestId,
      }),
    });
  }

  /** Keeps the timeline moving: a frame of silence for every frame period in which the app sent no audio. */
  #scheduleSilence(): void {
    this.#silenceTimer = this.#options.clock.setTimeout(() => {
      if (this.#phase !== 'open') return;
      if (!this.#heardFromApp) {
        try {
          this.#transmit('silence', `{"type":"session.input_audio.append","audio":"${this.#silenceFrame}"}`);
        } catch {
          // The connection just ended (reported as disconnected); nothing more to keep moving.
          return;
        }
      }
      this.#heardFromApp = false;
      this.#scheduleSilence();
    }, this.#options.silenceFrameMs);
  }

  #stopSilence(): void {
    if (this.#silenceTimer !== undefined) this.#options.clock.clearTimeout(this.#silenceTimer);
    this.#silenceTimer = undefined;
  }

  // --- reading ---

  readonly #onOpen = (): void => {
    this.#opened = true;
    this.#write({
      type: 'session.start',
      event_id: 'parley.start',
      session: this.#start as LiveSessionConfig,
    });
  };

  #start: LiveSessionConfig | undefined;

  readonly #onMessage = (event: SocketEventMap['message']): void => {
    const data = event.data;
    const text = frameText(data);
    if (text === undefined) return;
    if (this.#rawEvents) this.#emit({ type: 'raw_event', event: rawEventOf(text, this.#secrets) });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (isPlainObject(parsed) && typeof parsed.type === 'string') this.#handle(parsed.type, parsed);
  };

  #handle(type: string, event: Record<string, unknown>): void {
    switch (type) {
      case 'session.output_audio.delta': {
        const delta = str(event.delta);
        if (delta) this.#segmenter.audio(decodeBase64(delta));
        return;
      }
      case 'session.output_transcript.delta':
        this.#segmenter.transcript(str(event.delta) ?? '');
        return;
      case 'session.input_transcript.delta':
        this.#turns.fragment(str(event.delta) ?? '', num(event.start_ms), num(event.end_ms));
        return;
      case 'session.started':
        this.#started(event);
        return;
      case 'session.delegation.created': {
        const delegation = isPlainObject(event.delegation) ? event.delegation : {};
        const offsetMs = num(event.offset_ms);
        // The request is what was said up to the offset: later words arrive after the delegation, as a new turn.
        const laterWords = this.#turns.finishAt(offsetMs);
        this.#emit({
          type: 'delegation_requested',
          delegationId: str(delegation.id) ?? '',
          offsetMs,
          target: delegation.target === 'client' ? 'app' : 'provider',
        });
        laterWords();
        return;
      }
      case 'session.instructions.appended':
      case 'session.thinking.appended':
      case 'session.commentary.appended': {
        const id = str(event.client_event_id);
        if (id !== undefined) this.#requests.delete(id);
        this.#emit({
          type: 'context_appended',
          kind: SEAM_KIND[type] as ContextAppendKind,
          startMs: num(event.start_ms),
          endMs: num(event.end_ms),
          ...(id !== undefined && { clientRequestId: id }),
        });
        return;
      }
      case 'response.event':
        this.#backend.event(event);
        return;
      case 'session.usage.updated': {
        const usage = isPlainObject(event.usage) ? event.usage : {};
        const window = isPlainObject(event.context_window) ? event.context_window : undefined;
        this.#emit({
          type: 'usage_updated',
          audioSeconds: num(usage.seconds),
          ...(window && { contextWindowRatio: num(window.usage_ratio) }),
        });
        return;
      }
      case 'session.updated':
        this.#sessionUpdated(event);
        return;
      case 'session.closed':
        this.#sessionClosed(str(event.reason) ?? 'close_requested');
        return;
      case 'error':
        this.#error(event);
        return;
    }
  }

  #started(event: Record<string, unknown>): void {
    if (this.#phase !== 'connecting') return;
    const session = isPlainObject(event.session) ? event.session : {};
    this.#sessionId = str(session.id);
    this.#expiresAt = expiryOf(session);
    const settle = this.#connect.end();
    this.#phase = 'open';
    const { keepalive, clock } = this.#options;
    if (keepalive) {
      this.#stopKeepalive = startKeepalive(this.#socket, clock, keepalive, (reason) =>
        this.#lost(reason, true),
      );
    }
    this.#scheduleSilence();
    this.#emit({ type: 'connection_status', status: 'connected' });
    settle?.resolve();
  }

  /** Every session resource states the limit: one that moved after the start is announced. */
  #sessionUpdated(event: Record<string, unknown>): void {
    const expiresAt = expiryOf(isPlainObject(event.session) ? event.session : {});
    if (expiresAt === undefined || expiresAt === this.#expiresAt) return;
    this.#expiresAt = expiresAt;
    if (this.#phase === 'open') this.#emit({ type: 'session_expiring', expiresAt });
  }

  #error(event: Record<string, unknown>): void {
    const error = isPlainObject(event.error) ? event.error : {};
    const code = str(error.code) ?? 'unknown_error';
    const message = redactSecrets(str(error.message) ?? 'GPT-Live reported an error.', this.#secrets);
    if (this.#phase === 'connecting') {
      this.#rejectConnect(
        new OpenAILiveError('live_session_rejected', `GPT-Live refused session.start (${code}): ${message}`, {
          serverCode: code,
        }),
      );
      return;
    }
    const id = str(event.client_event_id) ?? str(error.client_event_id);
    const commandType = id === undefined ? undefined : (this.#requests.get(id) ?? commandTypeOf(id));
    if (id !== undefined) this.#requests.delete(id);
    const isRequest = commandType === 'createResponse' || commandType === 'appendContext';
    this.#emit({
      type: 'error',
      code,
      message,
      ...(commandType !== undefined && { commandType }),
      ...(isRequest && id !== undefined && { clientRequestId: id }),
    });
  }

  #sessionClosed(reason: string): void {
    this.#segmenter.end();
    this.#turns.cut();
    if (this.#phase === 'closing') {
      this.#closeSocket();
      return;
    }
    if (reason === 'expired') {
      this.#emit({ type: 'session_expired', message: 'The GPT-Live session reached its time limit.' });
    }
    this.#phase = 'closing';
    this.#stopSilence();
    this.#stopKeepalive();
    this.#closeSocket();
  }

  readonly #onError = (event: SocketEventMap['error']): void => {
    const message = event.message ?? (event.error instanceof Error ? event.error.message : undefined);
    if (message) this.#socketError = redactSecrets(message, this.#secrets);
    // An error on an open socket (invalid UTF-8, a protocol error) ends it; its close may never complete.
    if (this.#phase === 'open') this.#lost(`socket error: ${this.#socketError ?? 'unknown'}`, true);
  };

  readonly #onClose = (event: SocketEventMap['close']): void => {
    const previous = this.#phase;
    this.#phase = 'closed';
    this.#stopSilence();
    this.#detach();
    this.#resolveClosed?.();
    if (previous === 'connecting') {
      const status = upgradeStatus(this.#socketError);
      const error =
        status === 401 || status === 403
          ? new OpenAILiveError(
              'live_auth_failed',
              `GPT-Live refused the credentials (HTTP ${status}). Check the API key.`,
              { status },
            )
          : new OpenAILiveError(
              this.#opened ? 'live_closed_before_ready' : 'live_handshake_failed',
              this.#opened
                ? `GPT-Live closed the connection before session.started (close code ${event.code}).`
                : `Could not open the GPT-Live WebSocket (${Number.isNaN(status) ? (this.#socketError ?? `close code ${event.code}`) : `HTTP ${status}`}). Check the url and the network.`,
              { ...(!Number.isNaN(status) && { status }), closeCode: event.code },
            );
      this.#failConnect(error);
      return;
    }
    if (previous === 'open' || previous === 'closing') {
      this.#segmenter.end();
      this.#turns.cut();
      if (previous === 'open' || !this.#resolveClosed) {
        this.#emit({
          type: 'connection_status',
          status: 'disconnected',
          reason: redactSecrets(event.reason || 'The GPT-Live connection was closed.', this.#secrets),
        });
      }
    }
  };

  /** The wait for the close event of a socket being closed, bounded by `closeTimeoutMs`. */
  #waitForClose(): Promise<void> {
    this.#stopKeepalive();
    const wait = closeWait(this.#options.clock, this.#options.closeTimeoutMs, () => {
      this.#detach();
      (this.#socket as { terminate?: () => void }).terminate?.();
      this.#phase = 'closed';
    });
    this.#resolveClosed = wait.closed;
    return wait.done;
  }

  #closeSocket(): void {
    try {
      this.#socket.close(1000, 'OK');
    } catch {
      // A socket that never opened may throw on close; its close event follows.
    }
  }

  #emit(event: RealtimeEvent): void {
    if (this.#backlog) {
      this.#backlog.push(event);
      return;
    }
    this.#dispatchAll([event]);
  }

  #dispatchAll(events: readonly RealtimeEvent[]): void {
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          reportListenerError(error);
        }
      }
    }
  }

  // --- connect phase ---

  #waitUntilStarted(start: LiveSessionConfig, signal: AbortSignal | undefined): Promise<void> {
    this.#start = start;
    return this.#connect.wait({
      timeoutMs: this.#options.connectTimeoutMs,
      timeoutError: () =>
        new OpenAILiveError(
          'live_connect_timeout',
          `GPT-Live did not start the session within ${this.#options.connectTimeoutMs} ms; raise connectTimeoutMs or check the network.`,
        ),
      signal,
      onStop: (error) => this.#rejectConnect(error),
    });
  }

  #rejectConnect(error: Error): void {
    const settle = this.#connect.end();
    if (!settle) return;
    this.#phase = 'closing';
    this.#closed = this.#waitForClose();
    this.#closeSocket();
    void this.#closed.then(() => settle.reject(error));
  }

  #failConnect(error: Error): void {
    this.#connect.end()?.reject(error);
  }
}

function commandTypeOf(eventId: string): RealtimeCommand['type'] | undefined {
  const match = /^parley\.(\w+)\.\d+$/.exec(eventId);
  const type = match?.[1];
  return type === 'updateSession' || type === 'sendToolOutput' ? type : undefined;
}
