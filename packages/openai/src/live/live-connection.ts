import type {
  RealtimeAudioStreamFormat,
  RealtimeCommand,
  RealtimeConnection,
  RealtimeEvent,
  RealtimeSessionConfig,
  TimerHandle,
} from '@parley/core';
import { type ConnectFailure, SocketConnection, type WebSocketLike } from '@parley/transport';
import { encodeBase64 } from '../shared/base64.js';
import type { JsonObject } from '../shared/deep-merge.js';
import type { LiveClientEvent } from '../shared/live-wire-events.js';
import type { LiveAudioFormat, LiveSessionConfig } from '../shared/live-wire-session.js';
import { redactSecrets } from '../shared/redact.js';
import { BackendRelay } from './backend-relay.js';
import { OpenAILiveError } from './errors.js';
import { fatalLiveClose, isFatalLiveError } from './fatal-failures.js';
import { InputTurns } from './input-turns.js';
import { LiveCommands, toLiveTools } from './live-client-events.js';
import { LiveServerEvents } from './live-server-events.js';
import type { ResolvedLiveOptions } from './options.js';
import { OutputSegmenter } from './output-segmenter.js';
import { audioShape } from './wire-audio.js';

/** A session resource's `expires_at` (Unix seconds) as epoch milliseconds; `undefined` when it states none. */
function expiryOf(session: JsonObject): number | undefined {
  const seconds = session.expires_at;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * The one audio format of a primary WebSocket, both ways: G.711 when the app speaks it both ways (a phone line:
 * passed through untouched), else PCM16 24 kHz, which the session converts the app's audio to and from.
 */
function wireFormat(config: RealtimeSessionConfig): LiveAudioFormat {
  const { inputAudioFormat: input, outputAudioFormat: output } = config;
  if (input === 'g711_ulaw' && output === 'g711_ulaw') return { type: 'audio/pcmu', rate: 8000 };
  if (input === 'g711_alaw' && output === 'g711_alaw') return { type: 'audio/pcma', rate: 8000 };
  return { type: 'audio/pcm', rate: 24000 };
}

/** The seam's stream format of a wire format. */
function streamFormat(format: LiveAudioFormat): RealtimeAudioStreamFormat {
  if (format.type === 'audio/pcmu') return { encoding: 'g711_ulaw' };
  if (format.type === 'audio/pcma') return { encoding: 'g711_alaw' };
  return { encoding: 'pcm16', sampleRate: format.rate };
}

/** The `session.start` a seam configuration and the model's options produce. Only fields the service knows. */
export function toSessionStart(
  options: ResolvedLiveOptions,
  config: RealtimeSessionConfig,
): LiveSessionConfig {
  const tools = toLiveTools(config.tools ?? []);
  const session: LiveSessionConfig = {
    model: options.model,
    audio: {
      format: wireFormat(config),
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

/** The error `connect()` rejects with when the socket closed or failed before `session.started`. */
function connectError(failure: ConnectFailure): OpenAILiveError {
  const { status, opened, socketError, closeCode } = failure;
  if (status === 401 || status === 403) {
    return new OpenAILiveError(
      'live_auth_failed',
      `GPT-Live refused the credentials (HTTP ${status}). Check the API key.`,
      { status },
    );
  }
  return new OpenAILiveError(
    opened ? 'live_closed_before_ready' : 'live_handshake_failed',
    opened
      ? `GPT-Live closed the connection before session.started (close code ${closeCode}).`
      : `Could not open the GPT-Live WebSocket (${Number.isNaN(status) ? (socketError ?? `close code ${closeCode}`) : `HTTP ${status}`}). Check the url and the network.`,
    { ...(!Number.isNaN(status) && { status }), closeCode },
  );
}

/**
 * One GPT-Live session over a primary WebSocket, as a seam connection: the transport's connection skeleton with
 * GPT-Live's codec (`live-server-events.ts` reads, `live-client-events.ts` writes). Besides what the skeleton owns,
 * it keeps the timeline moving with silence frames while the app sends no audio. A close by the owner sends
 * `session.close` and waits for `session.closed` (bounded by `closeTimeoutMs`); reconnecting means a new session.
 */
export class OpenAILiveConnection implements RealtimeConnection {
  readonly #link: SocketConnection;
  /** A fatal `error` was reported: the close that ends the connection adds none. */
  #fatalReported = false;
  readonly #options: ResolvedLiveOptions;
  readonly #segmenter: OutputSegmenter;
  readonly #turns: InputTurns;
  readonly #backend: BackendRelay;
  readonly #commands: LiveCommands;
  readonly #reader: LiveServerEvents;
  readonly #silenceFrame: string;
  readonly #secrets: string[];
  readonly #start: LiveSessionConfig;
  /** The audio format on the wire, both ways. */
  readonly #wireFormat: LiveAudioFormat;
  #ids = 0;
  #sessionId: string | undefined;
  #expiresAt: number | undefined;
  #silenceTimer: TimerHandle | undefined;
  #heardFromApp = false;
  /** `input_speech_started` went out for the user's current turn. */
  #userSpeaking = false;
  /** The user's words over the voice are being reported (a cancel now is theirs). */
  #bargeIn = false;

  private constructor(
    socket: WebSocketLike,
    options: ResolvedLiveOptions,
    apiKey: string,
    connect: { config: RealtimeSessionConfig; rawEvents: boolean },
  ) {
    this.#options = options;
    this.#secrets = [apiKey];
    this.#start = toSessionStart(options, connect.config);
    this.#wireFormat =
      options.sessionId === undefined
        ? (this.#start.audio?.format ?? { type: 'audio/pcm', rate: 24000 })
        : { type: 'audio/pcm', rate: 24000 };
    const audio = audioShape(this.#wireFormat);
    const emit = (event: RealtimeEvent) => this.#link.emit(event);
    this.#turns = new InputTurns({
      emit,
      nextId: () => this.#nextId('item'),
      gapMs: options.turnGapMs,
      started: (startMs) => this.#userStarted(startMs),
      stopped: () => {
        if (!this.#userSpeaking) return;
        this.#userSpeaking = false;
        emit({ type: 'input_speech_stopped' });
      },
    });
    this.#segmenter = new OutputSegmenter({
      emit,
      nextId: (prefix) => this.#nextId(prefix),
      gapMs: options.turnGapMs,
      onSpeechStart: () => this.#turns.finish(),
      servicePlayback: options.sessionId !== undefined,
      audio,
    });
    this.#backend = new BackendRelay(emit, () =>
      this.#write({ type: 'response.create', event_id: this.#eventId('continue') }),
    );
    this.#commands = new LiveCommands(
      options,
      this.#backend,
      {
        write: (event) => this.#write(event),
        transmit: (what, frame) => this.#link.transmit(what, frame),
        refuse: (command, message, code) => this.#refuse(command, message, code),
        eventId: (type) => this.#eventId(type),
        heardFromApp: () => {
          this.#heardFromApp = true;
        },
        cancelSpeech: (responseId) =>
          this.#segmenter.end(this.#bargeIn ? 'user_turn' : 'client_cancelled', responseId),
      },
      connect.config.instructions,
    );
    this.#reader = new LiveServerEvents(
      {
        emit,
        started: (session) => this.#started(session),
        updated: (session) => this.#sessionUpdated(session),
        closed: (reason) => this.#sessionClosed(reason),
        failed: (error) => this.#error(error),
        acknowledged: (id) => this.#commands.acknowledged(id),
      },
      { segmenter: this.#segmenter, turns: this.#turns, backend: this.#backend },
    );
    this.#silenceFrame = encodeBase64(
      new Uint8Array(options.silenceFrameMs * audio.bytesPerMs).fill(audio.silenceByte),
    );
    this.#link = new SocketConnection(
      socket,
      {
        clock: options.clock,
        connectTimeoutMs: options.connectTimeoutMs,
        closeTimeoutMs: options.closeTimeoutMs,
        keepalive: options.keepalive,
        rawEvents: connect.rawEvents,
        name: 'GPT-Live',
        redact: (text) => redactSecrets(text, this.#secrets),
      },
      {
        opened: () => {
          // A sideband joins a running session: nothing to start.
          if (options.sessionId === undefined) {
            this.#write({ type: 'session.start', event_id: 'parley.start', session: this.#start });
          } else this.#started({ id: options.sessionId });
        },
        frame: (text) => this.#reader.frame(text),
        stopped: (peerClose) => {
          this.#stopSilence();
          this.#segmenter.end();
          this.#turns.cut();
          const fatal = peerClose === undefined ? undefined : fatalLiveClose(peerClose);
          if (fatal && !this.#fatalReported) this.#link.emit({ type: 'error', ...fatal, fatal: true });
        },
        connectFailed: connectError,
        connectTimedOut: (ms) =>
          new OpenAILiveError(
            'live_connect_timeout',
            `GPT-Live did not start the session within ${ms} ms; raise connectTimeoutMs or check the network.`,
          ),
      },
    );
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
    const connection = new OpenAILiveConnection(socket, options, apiKey, {
      config: connect.config,
      rawEvents: connect.rawEvents === true,
    });
    return connection.#link.waitUntilReady(connect.signal).then(() => connection);
  }

  get status(): 'open' | 'closed' {
    return this.#link.status;
  }

  /**
   * On a SIP call's sideband the service plays the audio on the phone line: the output deltas are what it played, and
   * a cut is where the listener stopped hearing.
   */
  get servicePlayback(): boolean {
    return this.#options.sessionId !== undefined;
  }

  /**
   * What GPT-Live takes and speaks: G.711 both ways when the session configured it both ways (passed through), else
   * PCM16 24 kHz, which the session converts the app's audio to and from. A sideband's audio is always PCM16 24 kHz.
   */
  get audioFormats(): { input: RealtimeAudioStreamFormat; output: RealtimeAudioStreamFormat } {
    const format = streamFormat(this.#wireFormat);
    return { input: format, output: format };
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
    return this.#link.onEvent(listener);
  }

  send(command: RealtimeCommand): void {
    this.#link.assertOpen(command.type);
    this.#commands.send(command);
  }

  close(): Promise<void> {
    this.#stopSilence();
    return this.#link.close({
      what: 'session.close',
      frame: JSON.stringify({ type: 'session.close', event_id: this.#eventId('close') }),
    });
  }

  // --- writing ---

  #nextId(prefix: string): string {
    return `${prefix}_${this.#sessionId ?? 'live'}_${++this.#ids}`;
  }

  #eventId(type: string): string {
    return `parley.${type}.${++this.#ids}`;
  }

  #write(event: LiveClientEvent): void {
    this.#link.transmit(event.type, JSON.stringify(event));
  }

  /** Refuses a command the way a service does: with an `error` event after `send` returned. */
  #refuse(command: RealtimeCommand, message: string, code = 'capability_not_supported'): void {
    queueMicrotask(() => {
      if (this.#link.phase !== 'open') return;
      this.#link.emit({
        type: 'error',
        code,
        message,
        commandType: command.type,
        ...((command.type === 'createResponse' || command.type === 'appendContext') && {
          clientRequestId: command.clientRequestId,
        }),
      });
    });
  }

  /** Keeps the timeline moving: a frame of silence for every frame period in which the app sent no audio. */
  #scheduleSilence(): void {
    this.#silenceTimer = this.#options.clock.setTimeout(() => {
      if (this.#link.phase !== 'open') return;
      if (!this.#heardFromApp) {
        try {
          this.#link.transmit(
            'silence',
            `{"type":"session.input_audio.append","audio":"${this.#silenceFrame}"}`,
          );
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

  /**
   * The user started a turn. GPT-Live stops its voice by itself when spoken over and says nothing about it: the words
   * are the only sign. Said over the response being spoken, they end it (what follows is a new response) and the
   * session hears the user start speaking, so it stops what is still playing and cuts it where the listener stopped
   * hearing. Words said before that response began (transcribed late) interrupt nothing.
   */
  #userStarted(startMs: number): void {
    if (this.#segmenter.speaking && !this.#segmenter.spokenOver(startMs)) return;
    this.#userSpeaking = true;
    // The session's cancel (sent while it handles the event) ends the response as the user's doing.
    this.#bargeIn = true;
    try {
      this.#link.emit({ type: 'input_speech_started' });
    } finally {
      this.#bargeIn = false;
    }
    this.#segmenter.end('user_turn');
  }

  // --- the session's lifecycle on the wire ---

  #started(session: JsonObject): void {
    if (this.#link.phase !== 'connecting') return;
    this.#sessionId = typeof session.id === 'string' ? session.id : undefined;
    this.#expiresAt = expiryOf(session);
    // A sideband's audio is the phone line's: the timeline moves without it.
    if (this.#options.sessionId === undefined) this.#scheduleSilence();
    this.#link.ready();
  }

  /** Every session resource states the limit: one that moved after the start is announced. */
  #sessionUpdated(session: JsonObject): void {
    const expiresAt = expiryOf(session);
    if (expiresAt === undefined || expiresAt === this.#expiresAt) return;
    this.#expiresAt = expiresAt;
    if (this.#link.phase === 'open') this.#link.emit({ type: 'session_expiring', expiresAt });
  }

  #error(error: { code: string; message: string; clientEventId: string | undefined }): void {
    const { code, clientEventId: id } = error;
    const message = redactSecrets(error.message, this.#secrets);
    if (this.#link.phase === 'connecting') {
      this.#link.rejectConnect(
        new OpenAILiveError('live_session_rejected', `GPT-Live refused session.start (${code}): ${message}`, {
          serverCode: code,
        }),
      );
      return;
    }
    const commandType = id === undefined ? undefined : this.#commands.settle(id);
    const isRequest = commandType === 'createResponse' || commandType === 'appendContext';
    const fatal = isFatalLiveError(code);
    // The service's close that follows is the same failure: it is not reported again.
    if (fatal) this.#fatalReported = true;
    this.#link.emit({
      type: 'error',
      code,
      message,
      ...(commandType !== undefined && { commandType }),
      ...(isRequest && id !== undefined && { clientRequestId: id }),
      ...(fatal && { fatal: true }),
    });
  }

  #sessionClosed(reason: string): void {
    // Ended mid-sentence (a caller who hung up, an expiry): the voice was cut where it was.
    this.#segmenter.end('connection_lost');
    this.#turns.cut();
    this.#stopSilence();
    if (this.#link.phase === 'closing') {
      this.#link.closeSocket();
      return;
    }
    if (reason === 'expired') {
      this.#link.emit({ type: 'session_expired', message: 'The GPT-Live session reached its time limit.' });
    }
    this.#link.endedByPeer();
  }
}
