import {
  type Clock,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeEvent,
  type RealtimeSessionConfig,
  ServiceUnreachableError,
} from '@parley/core';
import {
  type ConnectFailure,
  type ResolvedKeepalive,
  SocketConnection,
  type WebSocketLike,
} from '@parley/transport';
import { encodeBase64 } from '../shared/base64.js';
import { toBetaClientEvent } from '../shared/beta-dialect.js';
import type { JsonObject } from '../shared/deep-merge.js';
import { isNetworkFailure } from '../shared/network-failure.js';
import type { WireSession, WireTurnDetection } from '../shared/realtime-wire.js';
import { redactCause, redactFields, redactSecrets } from '../shared/redact.js';
import { type ClientEvent, commandEventId, commandTypeOfEventId, toClientEvent } from './client-events.js';
import { DeltaFrameReader } from './delta-frame.js';
import { OpenAIRealtimeError } from './errors.js';
import type { OpenAIRealtimeSessionConfig } from './options.js';
import { ServerEventNormalizer } from './server-events.js';
import {
  fromWireTurnDetection,
  hostedToolSecrets,
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
  /**
   * The service plays the audio to the listener (a WebRTC call, or a sideband attached to a WebRTC or SIP call): the
   * connection declares `servicePlayback`.
   */
  servicePlayback?: boolean;
}

/**
 * One live OpenAI Realtime session over a WebSocket: the transport's connection skeleton with the Realtime codec
 * (`server-events.ts` reads, `client-events.ts` writes). Besides what the skeleton owns (socket, listeners, phases,
 * timers), it keeps the session configuration: every update carries the whole merged session, and the configuration
 * the service confirmed is what `session.updated` acknowledged.
 *
 * An unexpected close emits `connection_status` `disconnected` with the close reason; the service's session limit
 * arrives first as a `session_expired` event. A `close()` by the owner emits nothing.
 */
export class OpenAIRealtimeConnection implements RealtimeConnection {
  readonly #link: SocketConnection;
  readonly #settings: ConnectionSettings;
  readonly #normalizer: ServerEventNormalizer;
  /** The configuration the service confirmed (`session.updated`). */
  #confirmed: RealtimeSessionConfig = {};
  /** Updates sent and not yet confirmed or rejected, in order; each answered by `session.updated` or an error. */
  #pendingUpdates: { eventId: string; update: RealtimeSessionConfig }[] = [];
  #eventCounter = 0;
  // Of the service's session object (last `session.created` / `session.updated`) only what is read later is kept.
  #expiresAt: number | undefined;
  #reportedTurnDetection: WireTurnDetection | null | undefined;
  #serverError: { code: string; message: string } | undefined;
  #initialUpdateId: string | undefined;
  /** The error being emitted refuses a `session.update` (set by the normalizer just before it). */
  #rejectedUpdate = false;
  readonly #initialConfig: RealtimeSessionConfig;

  private constructor(socket: WebSocketLike, settings: ConnectionSettings, config: RealtimeSessionConfig) {
    this.#settings = settings;
    this.#initialConfig = config;
    this.#normalizer = new ServerEventNormalizer({
      emit: (event) => this.#onNormalized(event),
      onControl: (type, event) => this.#onControl(type, event),
      onRejected: (eventId) => {
        // A refused update must not linger in the merged configuration, or every later update repeats it.
        this.#pendingUpdates = this.#pendingUpdates.filter((pending) => pending.eventId !== eventId);
        this.#rejectedUpdate = commandTypeOfEventId(eventId) === 'updateSession';
      },
    });
    const reader = new DeltaFrameReader(this.#normalizer);
    this.#link = new SocketConnection(
      socket,
      {
        clock: settings.clock,
        connectTimeoutMs: settings.connectTimeoutMs,
        closeTimeoutMs: settings.closeTimeoutMs,
        keepalive: settings.keepalive,
        rawEvents: settings.rawEvents,
        name: 'realtime',
        redact: (text) => this.#redact(text),
      },
      {
        frame: reader.frame,
        frameBytes: reader.frameBytes,
        connectFailed: (failure) => this.#connectError(failure),
        connectTimedOut: (ms) =>
          new OpenAIRealtimeError(
            'realtime_connect_timeout',
            `The Realtime session was not ready within ${ms} ms. Check the network and the endpoint, or raise ` +
              'connectTimeoutMs.',
          ),
      },
    );
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
    return connection.#link.waitUntilReady(signal).then(() => connection);
  }

  /** Whether the service plays this connection's audio to the listener (a WebRTC or SIP call, or its sideband). */
  get servicePlayback(): boolean {
    return this.#settings.servicePlayback === true;
  }

  /** `open` until closed by either side. */
  get status(): 'open' | 'closed' {
    return this.#link.status;
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
    return this.#link.onEvent(listener);
  }

  /**
   * Writes `command`. Throws {@link ConnectionClosedError} (the command was not sent) when the connection is
   * closed, when the socket stopped being open without telling (closing with no close acknowledgement yet), or
   * when the socket refuses the write; the latter two end the connection at once: it reports
   * `connection_status: disconnected` right after `send` returns.
   */
  send(command: RealtimeCommand): void {
    this.#link.assertOpen(command.type);
    if (command.type === 'updateSession') {
      this.#sendSessionUpdate(command.config);
      return;
    }
    if (command.type === 'appendInputAudio') {
      // The hot input path: no object, no JSON.stringify over the base64 text.
      const eventId = commandEventId('appendInputAudio', ++this.#eventCounter);
      this.#link.transmit(
        command.type,
        `{"type":"input_audio_buffer.append","event_id":"${eventId}","audio":"${encodeBase64(command.audio)}"}`,
      );
      return;
    }
    if (command.type === 'createResponse') {
      const event = toClientEvent(command, command.clientRequestId);
      this.#normalizer.trackRequest(command.clientRequestId, command.ephemeral);
      this.#write(event);
      return;
    }
    this.#write(toClientEvent(command, commandEventId(command.type, ++this.#eventCounter)));
  }

  close(): Promise<void> {
    return this.#link.close();
  }

  #write(event: ClientEvent): void {
    this.#link.transmit(
      event.type,
      JSON.stringify(this.#settings.dialect === 'beta' ? toBetaClientEvent(event) : event),
    );
  }

  /** Sends the complete merged session with `update` applied; every update carries everything set so far. */
  #sendSessionUpdate(update: RealtimeSessionConfig): string {
    // A hosted MCP server's credentials are secrets of this connection from now on.
    for (const secret of hostedToolSecrets(update.hostedTools)) {
      if (!this.#settings.secrets.includes(secret)) this.#settings.secrets.push(secret);
    }
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

  // --- events ---

  #onNormalized(normalized: RealtimeEvent): void {
    // Errors and response ends are rare, and their words come from the service: any of them may echo a key.
    const event =
      normalized.type === 'error'
        ? redactFields(normalized, this.#settings.secrets)
        : normalized.type === 'response_done' && normalized.errorCode !== undefined
          ? { ...normalized, errorCode: this.#redact(normalized.errorCode) }
          : normalized.type === 'hosted_tool_call' && normalized.action.error !== undefined
            ? {
                ...normalized,
                action: { ...normalized.action, error: this.#redact(normalized.action.error) },
              }
            : normalized;
    const rejectedUpdate = event.type === 'error' && this.#rejectedUpdate;
    this.#rejectedUpdate = false;
    if (this.#link.phase === 'connecting' && event.type === 'error') {
      if (rejectedUpdate && this.#initialUpdateId !== undefined) {
        this.#link.rejectConnect(
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
    this.#link.emit(event);
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
    if (this.#link.phase !== 'connecting') {
      // A limit that moved after connect (what `expiresAt` said before it resolved needs no event).
      const expiresAt = this.expiresAt;
      if (expiresAt !== undefined && expiresAt !== announced)
        this.#link.emit({ type: 'session_expiring', expiresAt });
      return;
    }
    if (type === 'session.created' && this.#initialUpdateId === undefined) {
      try {
        this.#initialUpdateId = this.#sendSessionUpdate(this.#initialConfig);
      } catch (error) {
        // The socket stopped being open before the session could be configured: connect() fails, typed, at once.
        this.#link.abandonConnect(
          new OpenAIRealtimeError(
            'realtime_closed_before_ready',
            `The Realtime socket stopped being open before the session was ready (${(error as Error).message}).`,
          ),
        );
      }
    } else if (type === 'session.updated' && this.#initialUpdateId !== undefined) {
      this.#link.ready();
    }
  }

  #connectError(failure: ConnectFailure): OpenAIRealtimeError | ServiceUnreachableError {
    const { status, opened, closeCode: code, closeReason, socketError } = failure;
    const closeDetails = { closeCode: code, closeReason };
    if (status === 401 || status === 403) {
      return new OpenAIRealtimeError(
        'realtime_auth_failed',
        `The Realtime service refused the credentials (HTTP ${status}). Check the API key (or mint a new ephemeral ` +
          'key) and that it may use this model.',
        { status, ...closeDetails },
      );
    }
    const cause =
      failure.socketErrorCause === undefined
        ? undefined
        : redactCause(failure.socketErrorCause, this.#settings.secrets);
    if (!opened && Number.isNaN(status) && isNetworkFailure(cause, socketError)) {
      // No HTTP answer at all: the service was not reached.
      const detail = socketError ?? `the socket closed with code ${code}`;
      return new ServiceUnreachableError('the Realtime service', undefined, detail, {
        cause: cause ?? new Error(detail),
      });
    }
    if (!opened) {
      const detail = Number.isNaN(status) ? (socketError ?? `close code ${code}`) : `HTTP ${status}`;
      return new OpenAIRealtimeError(
        'realtime_handshake_failed',
        `Could not open the Realtime WebSocket (${detail}). Check the url, the network and the credentials.`,
        { ...(!Number.isNaN(status) && { status }), ...closeDetails },
      );
    }
    const server = this.#serverError;
    const why = server ? `${server.code}: ${server.message}` : `close code ${code} ${closeReason}`;
    return new OpenAIRealtimeError(
      'realtime_closed_before_ready',
      `The Realtime service closed the connection before the session was ready (${why.trim()}).`,
      { ...closeDetails, ...(server && { serverCode: server.code }) },
    );
  }

  #redact(text: string): string {
    return redactSecrets(text, this.#settings.secrets);
  }
}
