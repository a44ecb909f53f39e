import {
  type Clock,
  ConnectionClosedError,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeEvent,
  type RealtimeSessionConfig,
  ServiceUnreachableError,
} from '@parley/core';
import {
  ConnectPhase,
  closeWait,
  frameText,
  isNodeBuffer,
  listenToSocket,
  type ResolvedKeepalive,
  reportListenerError,
  type SocketEventMap,
  startKeepalive,
  upgradeStatus,
  type WebSocketLike,
} from '@parley/transport';
import { encodeBase64 } from '../shared/base64.js';
import { toBetaClientEvent } from '../shared/beta-dialect.js';
import type { JsonObject } from '../shared/deep-merge.js';
import { isNetworkFailure } from '../shared/network-failure.js';
import { rawEventOf } from '../shared/raw-event.js';
import type { WireSession, WireTurnDetection } from '../shared/realtime-wire.js';
import { redactCause, redactFields, redactSecrets } from '../shared/redact.js';
import { type ClientEvent, commandEventId, commandTypeOfEventId, toClientEvent } from './client-events.js';
import { OpenAIRealtimeError } from './errors.js';
import type { OpenAIRealtimeSessionConfig } from './options.js';
import { ServerEventNormalizer } from './server-events.js';
import {
  fromWireTurnDetection,
  mergeSessionConfig,
  toTranscriptionSession,
  toWireSession,
  wireTurnDetectionOf,
} from './session-config.js';

/** What a connection needs besides its socket. */
export interface ConnectionSettings {
  clock: Clock;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  baseSession: OpenAIRealtimeSessionConfig;
  /** Secrets to scrub from every message this connection produces. */
  secrets: string[];
  /**
   * The dialect written on the wire: `ga` (default), or `beta` for services that still speak the preview protocol
   * (the legacy Azure path): flat `session.update`, assistant parts `text`/`audio`, `modalities`. Beta server event
   * names are read either way.
   */
  dialect?: 'ga' | 'beta';
  /** The transcription model of an `inputTranscription` that names none. Default `gpt-4o-mini-transcribe`. */
  transcriptionModel?: string;
  /** `transcription` for a transcription session (`?intent=transcription`): updates carry only input audio. */
  sessionType?: 'realtime' | 'transcription';
  /** Emit every server event as a `raw_event` (parsed JSON) ahead of its normalized events. */
  rawEvents?: boolean;
  /** Pings while open; a ping unanswered within its timeout loses the connection. Default off. */
  keepalive?: ResolvedKeepalive;
}

type Phase = 'connecting' | 'open' | 'closing' | 'closed';
type Listener = (event: RealtimeEvent) => void;

/** `WebSocket.OPEN`: the only ready state in which a frame is written rather than dropped. */
const SOCKET_OPEN = 1;
const textDecoder = new TextDecoder();

/**
 * One live OpenAI Realtime session over a WebSocket. It owns the socket and its listeners: every path out
 * (a failed connect, `close()`, a close by the server) removes them and clears its timers.
 *
 * An unexpected close emits `connection_status` `disconnected` with the close reason; the service's session limit
 * arrives first as a `session_expired` event. A `close()` by the owner emits nothing.
 */
export class OpenAIRealtimeConnection implements RealtimeConnection {
  readonly #socket: WebSocketLike;
  readonly #settings: ConnectionSettings;
  readonly #normalizer: ServerEventNormalizer;
  /** Removes the socket listeners and stops the keepalive. */
  readonly #detach: () => void;
  #stopKeepalive: () => void = () => {};
  #phase: Phase = 'connecting';
  #listeners: Listener[] = [];
  /** Events emitted before anyone subscribed; delivered to the first subscriber. */
  #backlog: RealtimeEvent[] | undefined = [];
  /** The configuration the service confirmed (`session.updated`). */
  #confirmed: RealtimeSessionConfig = {};
  /** Updates sent and not yet confirmed or rejected, in order; each answered by `session.updated` or an error. */
  #pendingUpdates: { eventId: string; update: RealtimeSessionConfig }[] = [];
  #eventCounter = 0;
  // Of the service's session object (last `session.created` / `session.updated`) only what is read later is kept.
  #expiresAt: number | undefined;
  #reportedTurnDetection: WireTurnDetection | null | undefined;
  #closed: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;

  readonly #connect: ConnectPhase;
  #opened = false;
  #socketErrorMessage: string | undefined;
  /** The socket's error before it opened (redacted), the cause of a connect that found nobody. */
  #socketError: unknown;
  #serverError: { code: string; message: string } | undefined;
  #initialUpdateId: string | undefined;
  /** The error being emitted refuses a `session.update` (set by the normalizer just before it). */
  #rejectedUpdate = false;
  readonly #initialConfig: RealtimeSessionConfig;

  private constructor(socket: WebSocketLike, settings: ConnectionSettings, config: RealtimeSessionConfig) {
    this.#socket = socket;
    this.#settings = settings;
    this.#initialConfig = config;
    this.#connect = new ConnectPhase(settings.clock);
    this.#normalizer = new ServerEventNormalizer({
      emit: (event) => this.#onNormalized(event),
      onControl: (type, event) => this.#onControl(type, event),
      onRejected: (eventId) => {
        // A refused update must not linger in the merged configuration, or every later update repeats it.
        this.#pendingUpdates = this.#pendingUpdates.filter((pending) => pending.eventId !== eventId);
        this.#rejectedUpdate = commandTypeOfEventId(eventId) === 'updateSession';
      },
    });
    const unlisten = listenToSocket(socket, {
      open: this.#onOpen,
      message: this.#onMessage,
      nodeMessage: this.#onNodeMessage,
      error: this.#onError,
      close: this.#onClose,
    });
    this.#detach = () => {
      this.#stopKeepalive();
      unlisten();
    };
  }

  /**
   * Wraps a socket that is being opened and resolves once the session is ready: `session.created` arrived, the
   * initial `session.update` was sent and the service confirmed it with `session.updated`. Rejects with an
   * {@link OpenAIRealtimeError} (or `AbortError`) after releasing the socket, its listeners and timers.
   */
  static open(
    socket: WebSocketLike,
    settings: ConnectionSettings,
    config: RealtimeSessionConfig,
    signal?: AbortSignal,
  ): Promise<OpenAIRealtimeConnection> {
    const connection = new OpenAIRealtimeConnection(socket, settings, config);
    return connection.#waitUntilReady(signal).then(() => connection);
  }

  /** `open` until closed by either side. */
  get status(): 'open' | 'closed' {
    return this.#phase === 'open' ? 'open' : 'closed';
  }

  /**
   * When the service ends this session (epoch ms), from the session's `expires_at` (Unix seconds); absent when
   * the service gave none (or `0`).
   */
  get expiresAt(): number | undefined {
    return this.#expiresAt;
  }

  /**
   * The effective seam configuration: what the service confirmed, with the updates still in flight merged over it.
   * An update the service refused is dropped from it.
   */
  get config(): RealtimeSessionConfig {
    return this.#pendingUpdates.reduce(
      (config, pending) => mergeSessionConfig(config, pending.update),
      this.#confirmed,
    );
  }

  /**
   * What the service confirmed: the updates it acknowledged, with the turn detection it reports in its own
   * session object (which may differ from what the app asked, e.g. a session bound to a client secret).
   */
  get confirmedConfig(): Readonly<RealtimeSessionConfig> {
    const turnDetection = fromWireTurnDetection(this.#reportedTurnDetection);
    return turnDetection === undefined ? { ...this.#confirmed } : { ...this.#confirmed, turnDetection };
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    // `concat` sizes the new array exactly (a spread grows it to spare capacity, kept per connection).
    this.#listeners = this.#listeners.concat(listener);
    const backlog = this.#backlog;
    if (backlog !== undefined) {
      this.#backlog = undefined;
      if (backlog.length > 0) {
        // Deliver after onEvent returns, before any later event (those come from socket tasks).
        this.#backlog = backlog;
        queueMicrotask(() => {
          const pending = this.#backlog ?? [];
          this.#backlog = undefined;
          for (const event of pending) this.#dispatch(event);
        });
      }
    }
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /**
   * Writes `command`. Throws {@link ConnectionClosedError} (the command was not sent) when the connection is
   * closed, when the socket stopped being open without telling (closing with no close acknowledgement yet), or
   * when the socket refuses the write; the latter two end the connection at once: it reports
   * `connection_status: disconnected` right after `send` returns.
   */
  send(command: RealtimeCommand): void {
    if (this.#phase !== 'open') {
      throw new ConnectionClosedError(`Cannot send "${command.type}": the realtime connection is closed.`);
    }
    if (command.type === 'updateSession') {
      this.#sendSessionUpdate(command.config);
      return;
    }
    if (command.type === 'appendInputAudio') {
      // The hot input path: no object, no JSON.stringify over the base64 text.
      const eventId = commandEventId('appendInputAudio', ++this.#eventCounter);
      this.#transmit(
        command.type,
        `{"type":"input_audio_buffer.append","event_id":"${eventId}","audio":"${encodeBase64(command.audio)}"}`,
      );
      return;
    }
    if (command.type === 'createResponse') {
      const event = toClientEvent(command, command.clientRequestId);
      this.#normalizer.trackRequest(command.clientRequestId, command.conversation);
      this.#write(event);
      return;
    }
    this.#write(toClientEvent(command, commandEventId(command.type, ++this.#eventCounter)));
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    if (this.#phase === 'closed') {
      this.#closed = Promise.resolve();
      return this.#closed;
    }
    this.#phase = 'closing';
    this.#closed = this.#closeSocket(1000, 'OK');
    return this.#closed;
  }

  #write(event: ClientEvent): void {
    this.#transmit(
      event.type,
      JSON.stringify(this.#settings.dialect === 'beta' ? toBetaClientEvent(event) : event),
    );
  }

  /**
   * Hands one frame to the socket. A socket that is no longer open would drop it silently (both `ws` and the
   * WHATWG WebSocket do), and one whose write throws is broken: either way the connection ends here, and the
   * caller gets a {@link ConnectionClosedError} instead of a frame that vanished.
   */
  #transmit(what: string, frame: string): void {
    const state = this.#socket.readyState;
    if (state !== SOCKET_OPEN) {
      this.#lost(`the socket stopped being open (readyState ${state}) before "${what}" was written`, false);
      throw new ConnectionClosedError(
        `Cannot send "${what}": the realtime socket is closing; the command was not sent.`,
      );
    }
    try {
      this.#socket.send(frame);
    } catch (error) {
      const detail = this.#redact(error instanceof Error ? error.message : String(error));
      this.#lost(`writing "${what}" to the socket failed: ${detail}`, false);
      throw new ConnectionClosedError(
        `Writing "${what}" to the realtime socket failed (${detail}); the command was not sent.`,
      );
    }
  }

  /**
   * The socket stopped being usable while the connection was open (an error, a write that failed, a close that
   * started without the close event): the connection is closed at once and the socket released without waiting
   * for a closing handshake that may never complete. `connection_status: disconnected` is emitted now, or, from
   * inside `send`, right after it returns (a listener must not run inside the caller's `send`).
   */
  #lost(reason: string, now: boolean): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'closed';
    this.#abandonSocket();
    const event: RealtimeEvent = {
      type: 'connection_status',
      status: 'disconnected',
      reason: this.#redact(reason),
    };
    if (now) this.#emit(event);
    else queueMicrotask(() => this.#emit(event));
  }

  /** Sends the complete merged session with `update` applied; every update carries everything set so far. */
  #sendSessionUpdate(update: RealtimeSessionConfig): string {
    const eventId = commandEventId('updateSession', ++this.#eventCounter);
    this.#pendingUpdates.push({ eventId, update });
    this.#write({
      type: 'session.update',
      event_id: eventId,
      session: (this.#settings.sessionType === 'transcription'
        ? toTranscriptionSession
        : (s: WireSession) => s)(
        toWireSession(this.#settings.baseSession, this.config, this.#settings.transcriptionModel),
      ),
    });
    return eventId;
  }

  // --- socket listeners (arrow properties so the same function can be removed) ---

  readonly #onOpen = (): void => {
    this.#opened = true;
  };

  readonly #onMessage = (event: SocketEventMap['message']): void => {
    const data = event.data;
    if (this.#settings.rawEvents) this.#emitRaw(data);
    if (typeof data === 'string') this.#normalizer.handleFrame(data);
    else if (data instanceof ArrayBuffer) this.#normalizer.handleFrame(textDecoder.decode(data));
    else if (ArrayBuffer.isView(data)) this.#normalizer.handleFrame(textDecoder.decode(data));
  };

  /** A `ws` socket's frame: a text frame as its bytes (a `Buffer`), else what the WHATWG interface would carry. */
  readonly #onNodeMessage = (data: unknown, isBinary?: boolean): void => {
    if (isBinary === false && isNodeBuffer(data)) {
      if (this.#settings.rawEvents) this.#onMessage({ data: data.toString('utf8') });
      else this.#normalizer.handleFrameBytes(data);
      return;
    }
    this.#onMessage({ data });
  };

  readonly #onError = (event: SocketEventMap['error']): void => {
    const message = event.message ?? (event.error instanceof Error ? event.error.message : undefined);
    if (message) this.#socketErrorMessage = this.#redact(message);
    if (event.error !== undefined) this.#socketError = redactCause(event.error, this.#settings.secrets);
    if (this.#phase === 'open') {
      // An error on an open socket (invalid UTF-8, a protocol error) ends it; its close event may take a closing
      // handshake the peer never answers, so the connection is over now.
      this.#lost(`socket error: ${this.#socketErrorMessage ?? 'unknown'}`, true);
      return;
    }
    if (this.#phase === 'connecting' && !this.#opened) {
      // A failed handshake: `ws` follows with a close event, undici (Node's global WebSocket) does not.
      this.#phase = 'closed';
      this.#detach();
      try {
        this.#socket.close();
      } catch {
        // Some implementations throw when closing a socket that never opened.
      }
      this.#failConnect(this.#closeError(1006, ''));
    }
  };

  readonly #onClose = (event: SocketEventMap['close']): void => {
    const previous = this.#phase;
    this.#phase = 'closed';
    this.#detach();
    this.#resolveClosed?.();
    if (previous === 'connecting') {
      this.#failConnect(this.#closeError(event.code, event.reason));
    } else if (previous === 'open') {
      this.#emit({
        type: 'connection_status',
        status: 'disconnected',
        reason: this.#redact(event.reason || this.#socketErrorMessage || 'The connection was closed.'),
      });
    }
  };

  /** The server event as it arrived (parsed JSON; the frame's text when it is not JSON). */
  #emitRaw(data: unknown): void {
    const text = frameText(data);
    if (text !== undefined)
      this.#emit({ type: 'raw_event', event: rawEventOf(text, this.#settings.secrets) });
  }

  /** Releases a socket that is no longer usable without waiting for a closing handshake. */
  #abandonSocket(): void {
    this.#detach();
    const socket = this.#socket as WebSocketLike & { terminate?: () => void };
    try {
      if (socket.terminate) socket.terminate();
      else socket.close();
    } catch {
      // Already closing: nothing more to release.
    }
  }

  // --- events ---

  #onNormalized(normalized: RealtimeEvent): void {
    // Errors and response ends are rare, and their words come from the service: any of them may echo a key.
    const event =
      normalized.type === 'error'
        ? redactFields(normalized, this.#settings.secrets)
        : normalized.type === 'response_done' && normalized.errorCode !== undefined
          ? { ...normalized, errorCode: this.#redact(normalized.errorCode) }
          : normalized;
    const rejectedUpdate = event.type === 'error' && this.#rejectedUpdate;
    this.#rejectedUpdate = false;
    if (this.#phase === 'connecting' && event.type === 'error') {
      if (rejectedUpdate && this.#initialUpdateId !== undefined) {
        this.#rejectConnect(
          new OpenAIRealtimeError(
            'realtime_session_rejected',
            `The Realtime service rejected the initial session configuration (${event.code}): ${event.message}`,
            { serverCode: event.code },
          ),
        );
        return;
      }
      this.#serverError = { code: event.code, message: event.message };
    }
    this.#emit(event);
  }

  #onControl(type: 'session.created' | 'session.updated', event: JsonObject): void {
    const announced = this.expiresAt;
    const session = event.session;
    if (session !== null && typeof session === 'object') {
      const seconds = (session as WireSession).expires_at;
      this.#expiresAt =
        typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
      this.#reportedTurnDetection = wireTurnDetectionOf(session as WireSession);
    }
    if (type === 'session.updated') {
      const confirmed = this.#pendingUpdates.shift();
      if (confirmed) this.#confirmed = mergeSessionConfig(this.#confirmed, confirmed.update);
    }
    if (this.#phase !== 'connecting') {
      // A limit that moved after connect (what `expiresAt` said before it resolved needs no event).
      const expiresAt = this.expiresAt;
      if (expiresAt !== undefined && expiresAt !== announced)
        this.#emit({ type: 'session_expiring', expiresAt });
      return;
    }
    if (type === 'session.created' && this.#initialUpdateId === undefined) {
      try {
        this.#initialUpdateId = this.#sendSessionUpdate(this.#initialConfig);
      } catch (error) {
        // The socket stopped being open before the session could be configured: connect() fails, typed, at once.
        this.#phase = 'closed';
        this.#abandonSocket();
        this.#failConnect(
          new OpenAIRealtimeError(
            'realtime_closed_before_ready',
            `The Realtime socket stopped being open before the session was ready (${(error as Error).message}).`,
          ),
        );
      }
    } else if (type === 'session.updated' && this.#initialUpdateId !== undefined) {
      this.#becomeReady();
    }
  }

  #emit(event: RealtimeEvent): void {
    if (this.#backlog !== undefined) {
      this.#backlog.push(event);
      return;
    }
    this.#dispatch(event);
  }

  #dispatch(event: RealtimeEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  // --- connect phase ---

  #waitUntilReady(signal: AbortSignal | undefined): Promise<void> {
    return this.#connect.wait({
      timeoutMs: this.#settings.connectTimeoutMs,
      timeoutError: () =>
        new OpenAIRealtimeError(
          'realtime_connect_timeout',
          `The Realtime session was not ready within ${this.#settings.connectTimeoutMs} ms. Check the network ` +
            'and the endpoint, or raise connectTimeoutMs.',
        ),
      signal,
      onStop: (error) => this.#rejectConnect(error),
    });
  }

  #becomeReady(): void {
    const settle = this.#connect.end();
    this.#phase = 'open';
    const { keepalive, clock } = this.#settings;
    if (keepalive) {
      this.#stopKeepalive = startKeepalive(this.#socket, clock, keepalive, (reason) =>
        this.#lost(reason, true),
      );
    }
    this.#emit({ type: 'connection_status', status: 'connected' });
    settle?.resolve();
  }

  /** Fails `connect()` while the socket is still up: closes it first, then rejects. */
  #rejectConnect(error: Error): void {
    const settle = this.#connect.end();
    if (!settle) return;
    this.#phase = 'closing';
    void this.#closeSocket(1000, 'connect failed').then(() => settle.reject(error));
  }

  /** Fails `connect()` after the socket closed by itself. */
  #failConnect(error: Error): void {
    this.#connect.end()?.reject(error);
  }

  #closeError(code: number, reason: string): OpenAIRealtimeError | ServiceUnreachableError {
    const status = upgradeStatus(this.#socketErrorMessage);
    const closeDetails = { closeCode: code, closeReason: this.#redact(reason) };
    if (status === 401 || status === 403) {
      return new OpenAIRealtimeError(
        'realtime_auth_failed',
        `The Realtime service refused the credentials (HTTP ${status}). Check the API key (or mint a new ephemeral ` +
          'key) and that it may use this model.',
        { status, ...closeDetails },
      );
    }
    if (
      !this.#opened &&
      Number.isNaN(status) &&
      isNetworkFailure(this.#socketError, this.#socketErrorMessage)
    ) {
      // No HTTP answer at all: the service was not reached.
      const detail = this.#socketErrorMessage ?? `the socket closed with code ${code}`;
      return new ServiceUnreachableError('the Realtime service', undefined, detail, {
        cause: this.#socketError ?? new Error(detail),
      });
    }
    if (!this.#opened) {
      const detail = Number.isNaN(status)
        ? (this.#socketErrorMessage ?? `close code ${code}`)
        : `HTTP ${status}`;
      return new OpenAIRealtimeError(
        'realtime_handshake_failed',
        `Could not open the Realtime WebSocket (${detail}). Check the url, the network and the credentials.`,
        { ...(!Number.isNaN(status) && { status }), ...closeDetails },
      );
    }
    const server = this.#serverError;
    const why = server ? `${server.code}: ${server.message}` : `close code ${code} ${this.#redact(reason)}`;
    return new OpenAIRealtimeError(
      'realtime_closed_before_ready',
      `The Realtime service closed the connection before the session was ready (${why.trim()}).`,
      { ...closeDetails, ...(server && { serverCode: server.code }) },
    );
  }

  // --- closing ---

  /** Starts the closing handshake and resolves on the close event, or after `closeTimeoutMs` at the latest. */
  #closeSocket(code: number, reason: string): Promise<void> {
    this.#stopKeepalive();
    const wait = closeWait(this.#settings.clock, this.#settings.closeTimeoutMs, () => {
      this.#phase = 'closed';
      this.#detach();
      (this.#socket as { terminate?: () => void }).terminate?.();
    });
    this.#resolveClosed = wait.closed;
    try {
      this.#socket.close(code, reason);
    } catch {
      // Closing a socket that is still connecting may throw in some implementations; the close event follows.
    }
    return wait.done;
  }

  #redact(text: string): string {
    return redactSecrets(text, this.#settings.secrets);
  }
}
