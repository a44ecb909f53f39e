import type { Clock, TimerHandle } from '@parley/core';
import {
  decodeBase64,
  deepMerge,
  encodeBase64,
  isBase64,
  isPlainObject,
  type JsonObject,
  PCM_24K,
  WIRE_CLIENT_EVENT_TYPES,
  type WireAudioFormat,
  type WireServerEvent,
  type WireSession,
  type WireTurnDetection,
} from '@parley/openai/wire';
import type { WebSocket } from 'ws';
import { EnergyVad } from '../shared/energy-vad.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Pace } from '../shared/pace.js';
import { decodeSpeechTexts } from '../shared/sim-audio.js';
import {
  invalidType,
  invalidValue,
  missingParameter,
  SimulatorServiceError,
  unknownParameter,
} from '../shared/sim-errors.js';
import type { RealtimeBrain } from './brain.js';
import { readBetaClientEvent, type SimulatorDialect, writeBetaServerEvent } from './sim-beta.js';
import type { SimulatorCallControl } from './sim-calls.js';
import { SimulatorConversation, type StoredItem } from './sim-conversation.js';
import { pcm24ToWire, wireBytesPerMs, wireToPcm24 } from './sim-format.js';
import { checkItem } from './sim-items.js';
import { type SimulatedMcpServer, SimulatorMcp } from './sim-mcp.js';
import { type PlayoutSink, ServicePlayout } from './sim-playout.js';
import { type ResponseHost, type ResponseParams, ResponseRun } from './sim-response.js';
import { parseResponseRequest } from './sim-response-request.js';
import {
  applySessionUpdate,
  defaultSession,
  defaultTranscriptionSession,
  effectiveSession,
} from './sim-session.js';
import { vadSettings } from './sim-vad.js';
import type { SimulatorRefusal, SimulatorStrictness } from './simulator.js';

const ACTIVE_RESPONSE_CODE = 'conversation_already_has_active_response';

const CLIENT_EVENT_TYPES = WIRE_CLIENT_EVENT_TYPES;

const TRANSCRIPTION_EVENT_TYPES = CLIENT_EVENT_TYPES.filter((type) => !type.startsWith('response.'));

/** An existing call that connections attach to with `?call_id=`: its session and conversation outlive them. */
export interface SimulatorCall {
  readonly id: string;
  session: WireSession;
  readonly conversation: SimulatorConversation;
  /**
   * Where the call's audio is: on a WebRTC peer or a phone line (SIP), both played by the service; absent for a call
   * made by `createCall()` without one.
   */
  readonly line?: 'webrtc' | 'sip';
  /** Where its control endpoints left it (WebRTC and SIP calls). */
  state?: 'ringing' | 'accepted' | 'rejected' | 'referred' | 'ended';
  /** What the control endpoints were asked, in order. */
  control?: SimulatorCallControl[];
}

/** What a connection's URL opened. */
export type SimulatorTarget =
  | { kind: 'model' }
  | { kind: 'transcription' }
  | { kind: 'call'; call: SimulatorCall };

/** Matches a recorded event: by `type`, or by a predicate. */
export type EventMatcher = string | ((event: JsonObject) => boolean);

/** Transcribes committed user audio; the default returns the text embedded by `speechAudio`. */
export type Transcriber = (audio: Uint8Array, info: { itemId: string; heard: string }) => string;

/** The `ws` socket subset a simulated connection uses; a WebRTC data channel is adapted to it. */
export type SimulatorSocket = Pick<WebSocket, 'bufferedAmount' | 'send' | 'close' | 'terminate'> & {
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'message', listener: (data: Buffer | string, isBinary: boolean) => void): unknown;
};

/** How a simulated connection was opened. */
export interface SimulatorConnectionInit {
  id: string;
  socket: SimulatorSocket;
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  protocol: string;
  model: string;
  ids: IdGenerator;
  clock: Clock;
  sessionLimitMs: number;
  brain: RealtimeBrain;
  msPerChar: number;
  chunkMs: number;
  /** How fast responses stream; `undefined`: instantly. */
  pace: Pace;
  transcribe: Transcriber;
  /** GA session fields merged into the default session reported by `session.created`. */
  initialSession: Partial<WireSession> | undefined;
  /** The MCP servers `mcp` tools name, by URL. */
  mcpServers?: Readonly<Record<string, SimulatedMcpServer>> | undefined;
  /** What the URL opened: a model session, a transcription session, or an existing call (its shared state). */
  target: SimulatorTarget;
  /** The protocol on the wire: GA, or the beta dialect (legacy Azure path). Default GA. */
  dialect?: SimulatorDialect;
  /** Refusals the protocol reference does not confirm, turned on. */
  strict: SimulatorStrictness;
  /** Bytes sent and not yet taken by the client above which the connection is dropped (1008). */
  maxBufferedBytes: number;
  /**
   * The service plays the audio (a WebRTC call's track, a SIP call's line): audio deltas go to the playout instead of
   * the socket, which reports `output_audio_buffer.*` and takes `output_audio_buffer.clear`. `sink` gets the played
   * frames (PCM16 24 kHz); absent, the audio plays nowhere (a phone line).
   */
  servicePlayback?: { sink?: PlayoutSink };
  /** A refusal the simulator was told to give the next `response.create` (taken once). */
  takeRefusal(): SimulatorRefusal | undefined;
  onClientEvent(connection: SimulatorConnection, event: unknown): void;
  onClose(connection: SimulatorConnection): void;
}

interface Waiter {
  match: EventMatcher;
  count: number;
  resolve(event: JsonObject): void;
}

function matches(match: EventMatcher, event: unknown): event is JsonObject {
  if (!isPlainObject(event)) return false;
  return typeof match === 'string' ? event.type === match : match(event);
}

/**
 * One client connected to the simulator: a GA Realtime session with its conversation, input buffer, server VAD,
 * active responses and session timer. It records every client event it receives and every server event it sends.
 */
export class SimulatorConnection {
  /** `conn_1`, `conn_2`, … in order of connection. */
  readonly id: string;
  /** The request path with its query string, as the client sent it. */
  readonly path: string;
  /** The upgrade request's headers (lower-case names). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The negotiated subprotocol (`realtime` or `''`). */
  readonly protocol: string;
  /** The model (or Azure deployment) named in the URL; `''` for a transcription session. */
  readonly model: string;
  /** `model`, `transcription` (`?intent=transcription`) or `call` (`?call_id=`). */
  readonly targetKind: SimulatorTarget['kind'];
  /** The call it is attached to (`?call_id=`, or a WebRTC call's data channel). */
  readonly callId: string | undefined;
  /** Every client event received, parsed (a frame that is not JSON is kept as its text). */
  readonly clientEvents: unknown[] = [];
  /** Every server event sent, in order. */
  readonly serverEvents: JsonObject[] = [];
  /** Resolves with the close code and reason once the socket has closed. */
  readonly closed: Promise<{ code: number; reason: string }>;

  /** The default conversation: items in order, with each item's audio. */
  readonly conversation: SimulatorConversation;
  /** The effective session (as the last `session.created` / `session.updated` reported it). */
  session: WireSession;

  readonly #ids: IdGenerator;
  /** What responses see of this connection. */
  readonly #host: ResponseHost;

  readonly #init: SimulatorConnectionInit;
  readonly #socket: SimulatorSocket;
  /** Where the service plays the audio, on a WebRTC or SIP call. */
  readonly #playout: ServicePlayout | undefined;
  readonly #runs = new Set<ResponseRun>();
  #activeDefault: ResponseRun | undefined;
  #input: Uint8Array[] = [];
  #inputBytes = 0;
  /** Milliseconds in the input buffer (each append counted in the input format of its time). */
  #inputMs = 0;
  #totalAppendedMs = 0;
  /** Where (in appended ms) the user's silence began: the end of the last response or of the last speech. */
  #idleSinceMs = 0;
  #reservedItemId: string | undefined;
  readonly #vad = new EnergyVad();
  #assistantAudio = false;
  #expiryTimer: TimerHandle | undefined;
  #open = true;
  /** Set when the client stopped taking events and the connection was dropped for it. */
  #dropped: { code: number; reason: string } | undefined;
  readonly #clientWaiters: Waiter[] = [];
  readonly #serverWaiters: Waiter[] = [];

  constructor(init: SimulatorConnectionInit) {
    this.#init = init;
    this.id = init.id;
    this.#socket = init.socket;
    this.path = init.path;
    this.headers = init.headers;
    this.protocol = init.protocol;
    this.model = init.model;
    this.targetKind = init.target.kind;
    this.callId = init.target.kind === 'call' ? init.target.call.id : undefined;
    this.conversation =
      init.target.kind === 'call' ? init.target.call.conversation : new SimulatorConversation();
    this.#ids = init.ids;
    this.#host = {
      ids: init.ids,
      conversation: this.conversation,
      conversationId: init.ids.next('conv'),
      connectionId: init.id,
      msPerChar: init.msPerChar,
      chunkMs: init.chunkMs,
      brain: init.brain,
      mcp: new SimulatorMcp(init.mcpServers, init.ids, this.conversation, (event) => this.#emit(event)),
      promptCache: { text: 0, audio: 0 },
      pace: init.pace,
      clock: init.clock,
      send: (event) => this.#sendFromResponse(event as unknown as JsonObject),
      onAssistantAudio: () => {
        this.#assistantAudio = true;
      },
      onFinished: (run) => {
        this.#runs.delete(run);
        if (this.#activeDefault === run) {
          this.#activeDefault = undefined;
          this.#idleSinceMs = this.#appendedMs;
        }
      },
    };
    const expiresAt = Math.floor(Date.now() / 1000 + init.sessionLimitMs / 1000);
    if (init.target.kind === 'call') {
      this.session = init.target.call.session;
    } else {
      const session =
        init.target.kind === 'transcription'
          ? defaultTranscriptionSession(init.ids.next('sess'), expiresAt)
          : defaultSession(init.ids.next('sess'), init.model, expiresAt);
      this.session = effectiveSession(
        init.initialSession ? (deepMerge(session, init.initialSession) as WireSession) : session,
      );
    }
    this.#playout =
      init.servicePlayback === undefined
        ? undefined
        : new ServicePlayout({
            clock: init.clock,
            ...(init.servicePlayback.sink && { sink: init.servicePlayback.sink }),
            emit: (event) => this.#emit(event),
          });
    this.closed = new Promise((resolve) => {
      this.#socket.on('close', (code, reason) => {
        this.#open = false;
        this.#playout?.close();
        this.#stopResponses();
        if (this.#expiryTimer !== undefined) init.clock.clearTimeout(this.#expiryTimer);
        this.#expiryTimer = undefined;
        init.onClose(this);
        resolve(this.#dropped ?? { code, reason: reason.toString() });
      });
    });
    this.#socket.on('message', (data, isBinary) => {
      this.#onFrame(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
    });
  }

  /** Starts the session: `session.created`, and the session timer. Called by the simulator unless deferred. */
  start(): void {
    if (!this.#open || this.#expiryTimer !== undefined) return;
    this.#expiryTimer = this.#init.clock.setTimeout(() => {
      this.#expiryTimer = undefined;
      this.expire();
    }, this.#init.sessionLimitMs);
    this.#emit({ type: 'session.created', session: structuredClone(this.session) });
  }

  /** `true` until the socket closes. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Responses that are streaming (or held). */
  get activeResponses(): readonly { id: string; conversation: 'default' | 'none' }[] {
    return [...this.#runs].map((run) => ({ id: run.id, conversation: run.params.conversation }));
  }

  /** Bytes in the input audio buffer (appended since the last commit or clear). */
  get inputBufferBytes(): number {
    return this.#inputBytes;
  }

  /** Sends a server event as is (an `event_id` is added when missing): for injecting faults or beta events. */
  send(event: JsonObject): void {
    if (!this.#open || this.#dropped) return;
    const full = { type: event.type, event_id: event.event_id ?? this.#ids.next('event'), ...event };
    this.serverEvents.push(full);
    this.#notify(this.#serverWaiters, this.serverEvents);
    const wire = this.#init.dialect === 'beta' ? writeBetaServerEvent(full) : full;
    if (wire) this.#write(JSON.stringify(wire));
  }

  /**
   * A response's event: on a call whose audio the service plays, the audio goes to the playout (not the socket), and
   * a finished response lets its playback stop once drained.
   */
  #sendFromResponse(event: JsonObject): void {
    const playout = this.#playout;
    if (playout !== undefined && this.#open) {
      if (event.type === 'response.output_audio.delta' && typeof event.delta === 'string') {
        const format = this.session.audio?.output?.format ?? PCM_24K;
        playout.enqueue(
          String(event.response_id),
          String(event.item_id),
          wireToPcm24(format, decodeBase64(event.delta)),
        );
        return;
      }
      if (event.type === 'response.done' && isPlainObject(event.response)) {
        playout.responseDone(String(event.response.id));
      }
    }
    this.send(event);
  }

  /**
   * Audio the listener sent on the call's media (WebRTC), PCM16 24 kHz: taken as `input_audio_buffer.append` takes
   * it (buffer, VAD, transcription).
   */
  appendMediaAudio(pcm24: Uint8Array): void {
    if (!this.#open) return;
    this.#appendAudio(pcm24ToWire(this.#inputFormat, pcm24));
  }

  /** Where the service stopped playing, on a call whose audio it plays: what the listener heard of `itemId`. */
  playedMs(itemId: string): number {
    return Math.floor(this.#playout?.playedMs(itemId) ?? 0);
  }

  /**
   * The service stops playing and drops what was not played (`output_audio_buffer.clear`, or a barge-in), and
   * truncates the message being heard where it stopped.
   */
  #clearPlayout(): void {
    const cut = this.#playout?.clear();
    if (cut === undefined || !this.conversation.get(cut.itemId)) return;
    const audioEndMs = Math.min(Math.floor(cut.playedMs), Math.floor(this.conversation.audioMs(cut.itemId)));
    this.#truncateTo(cut.itemId, 0, audioEndMs);
  }

  /** Bytes sent that the client has not taken yet (beyond what the operating system holds for it). */
  get bufferedBytes(): number {
    return this.#socket.bufferedAmount;
  }

  #write(data: string | Uint8Array, binary = false): void {
    this.#socket.send(data, { binary });
    if (this.#socket.bufferedAmount > this.#init.maxBufferedBytes) this.#drop();
  }

  /**
   * The client stopped taking events: the connection stops generating and is dropped with 1008 at once (the close
   * frame would wait behind everything the client has not read), so its buffers are freed.
   */
  #drop(): void {
    const limit = this.#init.maxBufferedBytes;
    this.#dropped = {
      code: 1008,
      reason: `The client did not read its events: over ${limit} bytes waited to be sent.`,
    };
    this.#stopResponses();
    this.#socket.close(this.#dropped.code, this.#dropped.reason);
    this.#socket.terminate();
  }

  #stopResponses(): void {
    for (const run of this.#runs) run.abandon();
    this.#runs.clear();
    this.#activeDefault = undefined;
  }

  /** Sends a server event of the wire catalogue: how the simulated service itself speaks. */
  #emit(event: WireServerEvent): void {
    this.send(event as unknown as JsonObject);
  }

  /**
   * Sends a raw text frame: a string (e.g. malformed JSON), or bytes sent as they are in a text frame (e.g.
   * invalid UTF-8, which a client must treat as a broken connection).
   */
  sendRaw(text: string | Uint8Array): void {
    if (!this.#open || this.#dropped) return;
    this.#write(text);
  }

  /** Closes the socket from the server side. */
  close(code = 1000, reason = ''): void {
    if (this.#open) this.#socket.close(code, reason);
  }

  /** Drops the TCP connection without a closing handshake (the client sees 1006). */
  terminate(): void {
    if (this.#open) this.#socket.terminate();
  }

  /** Ends the session as the service does at its time limit: `session_expired`, then close 1001. */
  expire(): void {
    const minutes = Math.round(this.#init.sessionLimitMs / 60_000);
    const message = `Your session hit the maximum duration of ${minutes} minutes.`;
    this.#sendError(new SimulatorServiceError('session_expired', message), null);
    this.close(1001, message);
  }

  /** Resolves with the `count`-th client event (1-based) matching `match`, received already or later. */
  waitForClientEvent(match: EventMatcher, count = 1): Promise<JsonObject> {
    return this.#wait(this.#clientWaiters, this.clientEvents, match, count);
  }

  /** Resolves with the `count`-th server event (1-based) matching `match`, sent already or later. */
  waitForServerEvent(match: EventMatcher, count = 1): Promise<JsonObject> {
    return this.#wait(this.#serverWaiters, this.serverEvents, match, count);
  }

  #wait(waiters: Waiter[], log: readonly unknown[], match: EventMatcher, count: number): Promise<JsonObject> {
    const found = log.filter((event) => matches(match, event));
    if (found.length >= count) return Promise.resolve(found[count - 1] as JsonObject);
    return new Promise((resolve) => waiters.push({ match, count, resolve }));
  }

  #notify(waiters: Waiter[], log: readonly unknown[]): void {
    if (waiters.length === 0) return;
    const last = log.at(-1);
    for (const waiter of [...waiters]) {
      if (!matches(waiter.match, last)) continue;
      const seen = log.filter((event) => matches(waiter.match, event)).length;
      if (seen >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(last as JsonObject);
      }
    }
  }

  // --- client events ---

  #onFrame(text: string): void {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      this.clientEvents.push(text);
      this.#init.onClientEvent(this, text);
      this.#sendError(
        new SimulatorServiceError('invalid_json', 'The event could not be parsed as JSON.'),
        null,
      );
      return;
    }
    const eventId = isPlainObject(event) && typeof event.event_id === 'string' ? event.event_id : null;
    // A beta connection records (and handles) each event as its GA equivalent.
    let refusal: unknown;
    if (this.#init.dialect === 'beta') {
      try {
        event = readBetaClientEvent(event);
      } catch (error) {
        refusal = error;
      }
    }
    this.clientEvents.push(event);
    this.#init.onClientEvent(this, event);
    this.#notify(this.#clientWaiters, this.clientEvents);
    try {
      if (refusal) throw refusal;
      this.#handle(event);
    } catch (error) {
      if (error instanceof SimulatorServiceError) this.#sendError(error, eventId);
      else throw error;
    }
  }

  #sendError(error: SimulatorServiceError, clientEventId: string | null): void {
    this.#emit({
      type: 'error',
      error: {
        type: error.errorType,
        code: error.code,
        message: error.message,
        param: error.param,
        event_id: clientEventId,
      },
    });
  }

  #handle(event: unknown): void {
    if (!isPlainObject(event) || typeof event.type !== 'string') {
      throw new SimulatorServiceError('invalid_event', "The 'type' field is missing.");
    }
    if (event.event_id !== undefined && (typeof event.event_id !== 'string' || event.event_id.length > 512)) {
      throw invalidValue('event_id', 'Invalid value: event_id must be a string of at most 512 characters.');
    }
    switch (event.type) {
      case 'session.update':
        this.#sessionUpdate(event);
        return;
      case 'input_audio_buffer.append':
        this.#append(event);
        return;
      case 'input_audio_buffer.commit': {
        const ms = this.#inputMs;
        if (ms < 100) {
          throw new SimulatorServiceError(
            'input_audio_buffer_commit_empty',
            `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${ms.toFixed(2)}ms of audio.`,
          );
        }
        this.#commit();
        return;
      }
      case 'input_audio_buffer.clear':
        this.#input = [];
        this.#inputBytes = 0;
        this.#inputMs = 0;
        this.#reservedItemId = undefined;
        this.#vad.reset();
        this.#emit({ type: 'input_audio_buffer.cleared' });
        return;
      case 'conversation.item.create':
        this.#createItem(event);
        return;
      case 'conversation.item.retrieve':
        this.#retrieveItem(event);
        return;
      case 'conversation.item.truncate':
        this.#truncateItem(event);
        return;
      case 'output_audio_buffer.clear':
        this.#checkEventKeys(event, []);
        if (this.#playout === undefined) {
          throw invalidValue(
            'type',
            "Invalid value: 'output_audio_buffer.clear'. It is only supported for WebRTC and SIP calls, where the service plays the audio.",
          );
        }
        this.#clearPlayout();
        return;
      case 'conversation.item.delete': {
        const itemId = this.#itemId(event);
        if (!this.conversation.has(itemId)) {
          throw new SimulatorServiceError(
            'item_delete_invalid_item_id',
            `Error deleting item: the item with id '${itemId}' does not exist.`,
          );
        }
        this.conversation.delete(itemId);
        this.#emit({ type: 'conversation.item.deleted', item_id: itemId });
        return;
      }
      case 'response.create':
      case 'response.cancel':
        if (this.session.type === 'transcription') {
          throw invalidValue(
            'type',
            `Invalid value: '${event.type}'. A transcription session creates no responses; supported values are: ${TRANSCRIPTION_EVENT_TYPES.map((t) => `'${t}'`).join(', ')}.`,
          );
        }
        if (event.type === 'response.create') this.#responseCreate(event);
        else this.#responseCancel(event);
        return;
      default:
        throw invalidValue(
          'type',
          `Invalid value: '${event.type}'. Supported values are: ${CLIENT_EVENT_TYPES.map((t) => `'${t}'`).join(', ')}.`,
        );
    }
  }

  #checkEventKeys(event: JsonObject, allowed: readonly string[]): void {
    for (const key of Object.keys(event)) {
      if (key !== 'type' && key !== 'event_id' && !allowed.includes(key)) throw unknownParameter(key);
    }
  }

  #itemId(event: JsonObject): string {
    if (event.item_id === undefined) throw missingParameter('item_id');
    if (typeof event.item_id !== 'string') throw invalidType('item_id', 'a string');
    return event.item_id;
  }

  #sessionUpdate(event: JsonObject): void {
    this.#checkEventKeys(event, ['session']);
    this.session = applySessionUpdate(this.session, event.session, {
      assistantAudioProduced: this.#assistantAudio,
      refuseModelChange: this.#init.strict.modelChange === true,
    });
    if (this.#init.target.kind === 'call') this.#init.target.call.session = this.session;
    if (!this.session.audio?.input?.turn_detection) this.#vad.reset();
    this.#emit({ type: 'session.updated', session: structuredClone(this.session) });
    this.#host.mcp.sessionTools(this.session.tools);
  }

  #append(event: JsonObject): void {
    this.#checkEventKeys(event, ['audio']);
    if (event.audio === undefined) throw missingParameter('audio');
    if (typeof event.audio !== 'string' || !isBase64(event.audio)) {
      throw invalidValue('audio', 'Invalid value: audio must be base64-encoded.');
    }
    this.#appendAudio(decodeBase64(event.audio));
  }

  #appendAudio(audio: Uint8Array): void {
    this.#input.push(audio);
    const format = this.#inputFormat;
    const ms = audio.length / wireBytesPerMs(format);
    this.#inputBytes += audio.length;
    this.#inputMs += ms;
    this.#totalAppendedMs += ms;
    const turnDetection = this.session.audio?.input?.turn_detection;
    if (!turnDetection) return;
    const settings = vadSettings(turnDetection);
    for (const transition of this.#vad.push(wireToPcm24(format, audio), settings)) {
      if (transition.type === 'start') this.#speechStarted(Math.max(0, transition.atMs - settings.prefixMs));
      else this.#speechStopped(transition.atMs, undefined);
    }
    this.#checkIdle(turnDetection);
  }

  /**
   * `idle_timeout_ms` (server VAD): when the user has been silent that long (in appended audio) since the last
   * response finished or speech stopped, with no response active, the service reports
   * `input_audio_buffer.timeout_triggered`, commits the silent audio and responds (to prompt the user).
   */
  #checkIdle(turnDetection: WireTurnDetection): void {
    const idleMs = turnDetection.type === 'server_vad' ? turnDetection.idle_timeout_ms : null;
    if (!idleMs || this.#vad.active || this.#activeDefault) return;
    const nowMs = this.#appendedMs;
    if (nowMs - this.#idleSinceMs < idleMs) return;
    const itemId = this.#ids.next('item');
    this.#emit({
      type: 'input_audio_buffer.timeout_triggered',
      audio_start_ms: this.#idleSinceMs,
      audio_end_ms: nowMs,
      item_id: itemId,
    });
    this.#idleSinceMs = nowMs;
    this.#reservedItemId = itemId;
    this.#commit();
    if (turnDetection.create_response !== false && this.session.type !== 'transcription') {
      this.#startResponse(this.#sessionParams('vad'));
    }
  }

  /** Milliseconds of audio appended since the session started. */
  get #appendedMs(): number {
    return Math.floor(this.#totalAppendedMs);
  }

  /** The session's input audio format. */
  get #inputFormat(): WireAudioFormat {
    return this.session.audio?.input?.format ?? PCM_24K;
  }

  /**
   * Acts as if server VAD detected the start of speech now (without audio): `speech_started`, and the active
   * default response is cancelled (`turn_detected`) when `interrupt_response` is on. Needs turn detection on.
   */
  startSpeech(): void {
    this.#speechStarted(this.#appendedMs);
  }

  /**
   * Acts as if server VAD detected the end of speech now: `speech_stopped`, commit of the input buffer (however
   * short) as a user item, its transcription (`transcript`, when given, instead of the transcriber's) when
   * transcription is on, and the automatic response when `create_response` is on.
   */
  stopSpeech(options: { transcript?: string } = {}): void {
    this.#speechStopped(this.#appendedMs, options.transcript);
  }

  #speechStarted(audioStartMs: number): void {
    const turnDetection = this.session.audio?.input?.turn_detection;
    if (!turnDetection) return;
    this.#reservedItemId = this.#ids.next('item');
    this.#emit({
      type: 'input_audio_buffer.speech_started',
      audio_start_ms: audioStartMs,
      item_id: this.#reservedItemId,
    });
    if (turnDetection.interrupt_response !== false) {
      this.#activeDefault?.cancel('turn_detected');
      // On a call the service plays, a barge-in also stops the playback and truncates where the listener stopped.
      this.#clearPlayout();
    }
  }

  #speechStopped(audioEndMs: number, transcript: string | undefined): void {
    const turnDetection = this.session.audio?.input?.turn_detection;
    if (!turnDetection) return;
    const itemId = this.#reservedItemId ?? this.#ids.next('item');
    this.#reservedItemId = itemId;
    this.#emit({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: audioEndMs, item_id: itemId });
    this.#idleSinceMs = audioEndMs;
    this.#commit(transcript);
    if (turnDetection.create_response === false || this.session.type === 'transcription') return;
    if (this.#activeDefault) this.#sendError(this.#activeResponseError(this.#activeDefault), null);
    else this.#startResponse(this.#sessionParams('vad'));
  }

  #commit(transcriptOverride?: string): void {
    const itemId = this.#reservedItemId ?? this.#ids.next('item');
    this.#reservedItemId = undefined;
    const audio = new Uint8Array(this.#inputBytes);
    let offset = 0;
    for (const chunk of this.#input) {
      audio.set(chunk, offset);
      offset += chunk.length;
    }
    this.#input = [];
    this.#inputBytes = 0;
    const committedMs = this.#inputMs;
    this.#inputMs = 0;
    const format = this.#inputFormat;
    const item: StoredItem = {
      id: itemId,
      object: 'realtime.item',
      type: 'message',
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_audio', transcript: null }],
    };
    const previous = this.conversation.insert(item);
    this.conversation.addAudio(itemId, audio, wireBytesPerMs(format));
    const heard = transcriptOverride ?? decodeSpeechTexts(wireToPcm24(format, audio)).join(' ');
    this.conversation.setHeard(itemId, heard);
    this.#emit({ type: 'input_audio_buffer.committed', previous_item_id: previous, item_id: itemId });
    this.#emit({ type: 'conversation.item.added', previous_item_id: previous, item: structuredClone(item) });
    this.#emit({ type: 'conversation.item.done', previous_item_id: previous, item: structuredClone(item) });
    if (this.session.audio?.input?.transcription) {
      const transcript = transcriptOverride ?? this.#init.transcribe(audio, { itemId, heard });
      if (transcript) {
        this.#emit({
          type: 'conversation.item.input_audio_transcription.delta',
          item_id: itemId,
          content_index: 0,
          delta: transcript,
        });
      }
      this.#emit({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: itemId,
        content_index: 0,
        transcript,
        usage: { type: 'duration', seconds: Math.ceil(committedMs / 1000) },
      });
      const part = item.type === 'message' ? item.content[0] : undefined;
      if (part && part.type === 'input_audio') part.transcript = transcript;
    }
  }

  #createItem(event: JsonObject): void {
    this.#checkEventKeys(event, ['item', 'previous_item_id']);
    const item = checkItem(event.item, 'item');
    const previousId = event.previous_item_id;
    if (previousId !== undefined && previousId !== null) {
      if (typeof previousId !== 'string') throw invalidType('previous_item_id', 'a string');
      if (previousId !== 'root' && !this.conversation.has(previousId)) {
        throw invalidValue(
          'previous_item_id',
          `Invalid value: the item with id '${previousId}' does not exist.`,
        );
      }
    }
    if (item.id !== undefined && this.conversation.has(item.id)) {
      throw invalidValue('item.id', `Invalid value: an item with id '${item.id}' already exists.`);
    }
    if (item.type === 'mcp_approval_response') this.#checkApprovalResponse(item.approval_request_id);
    const stored = {
      ...item,
      id: item.id ?? this.#ids.next('item'),
      object: 'realtime.item' as const,
      status: 'completed' as const,
    };
    if (stored.type === 'function_call' && stored.call_id === undefined)
      stored.call_id = this.#ids.next('call');
    // Audio bytes are kept aside (bookkeeping and retrieve) and never echoed in item events.
    if (stored.type === 'message') {
      stored.content = stored.content.map((part) => {
        if (part.type !== 'input_audio' || part.audio === undefined) return part;
        const bytes = decodeBase64(part.audio);
        const format = this.#inputFormat;
        this.conversation.addAudio(stored.id, bytes, wireBytesPerMs(format));
        this.conversation.setHeard(stored.id, decodeSpeechTexts(wireToPcm24(format, bytes)).join(' '));
        return { type: 'input_audio', transcript: part.transcript ?? null };
      });
    }
    const previous = this.conversation.insert(
      stored as StoredItem,
      typeof previousId === 'string' ? previousId : undefined,
    );
    this.#emit({
      type: 'conversation.item.added',
      previous_item_id: previous,
      item: structuredClone(stored),
    });
    this.#emit({ type: 'conversation.item.done', previous_item_id: previous, item: structuredClone(stored) });
  }

  /** An approval response must answer an approval request of the conversation, once. */
  #checkApprovalResponse(requestId: string): void {
    const request = this.conversation.get(requestId);
    if (request?.type !== 'mcp_approval_request') {
      throw invalidValue(
        'item.approval_request_id',
        `Invalid value: '${requestId}'. No mcp_approval_request with that id exists.`,
      );
    }
    const answered = this.conversation.items.some(
      (i) => i.type === 'mcp_approval_response' && i.approval_request_id === requestId,
    );
    if (answered) {
      throw invalidValue(
        'item.approval_request_id',
        `Invalid value: '${requestId}'. That approval request was already answered.`,
      );
    }
  }

  #retrieveItem(event: JsonObject): void {
    this.#checkEventKeys(event, ['item_id']);
    const itemId = this.#itemId(event);
    const item = this.conversation.get(itemId);
    if (!item) {
      throw new SimulatorServiceError(
        'item_retrieve_invalid_item_id',
        `Error retrieving item: the item with id '${itemId}' does not exist.`,
        'item_id',
      );
    }
    const copy = structuredClone(item);
    if (copy.type === 'message' && this.conversation.hasAudio(itemId)) {
      const audio = encodeBase64(this.conversation.audioBytes(itemId));
      for (const part of copy.content) {
        if (part.type === 'input_audio' || part.type === 'output_audio') part.audio = audio;
      }
    }
    this.#emit({ type: 'conversation.item.retrieved', item: copy });
  }

  #truncateItem(event: JsonObject): void {
    this.#checkEventKeys(event, ['item_id', 'content_index', 'audio_end_ms']);
    const itemId = this.#itemId(event);
    if (event.content_index === undefined) throw missingParameter('content_index');
    if (event.audio_end_ms === undefined) throw missingParameter('audio_end_ms');
    const contentIndex = event.content_index;
    const audioEndMs = event.audio_end_ms;
    if (typeof contentIndex !== 'number' || !Number.isInteger(contentIndex) || contentIndex < 0) {
      throw invalidType('content_index', 'a non-negative integer');
    }
    if (typeof audioEndMs !== 'number' || !Number.isInteger(audioEndMs) || audioEndMs < 0) {
      throw invalidType('audio_end_ms', 'a non-negative integer');
    }
    const item = this.conversation.get(itemId);
    if (!item) {
      throw new SimulatorServiceError(
        'item_truncate_invalid_item_id',
        `Error truncating item: the item with id '${itemId}' does not exist.`,
        'item_id',
      );
    }
    const part = item.type === 'message' ? item.content[contentIndex] : undefined;
    if (item.type !== 'message' || item.role !== 'assistant' || !part || part.type !== 'output_audio') {
      if (!(item.type === 'message' && item.role === 'assistant' && this.conversation.hasAudio(itemId))) {
        throw invalidValue('item_id', 'Only model output audio messages can be truncated.');
      }
    }
    const availableMs = this.conversation.audioMs(itemId);
    if (audioEndMs > availableMs) {
      throw invalidValue(
        'audio_end_ms',
        `Audio content of ${availableMs}ms is already shorter than ${audioEndMs}ms`,
      );
    }
    this.#truncateTo(itemId, contentIndex, audioEndMs);
  }

  /** Cuts an assistant message's audio (and the unheard share of its transcript) and says so. */
  #truncateTo(itemId: string, contentIndex: number, audioEndMs: number): void {
    const item = this.conversation.get(itemId);
    const part = item?.type === 'message' ? item.content[contentIndex] : undefined;
    const availableMs = this.conversation.audioMs(itemId);
    this.conversation.truncateAudio(itemId, audioEndMs);
    // The service drops the unheard transcript; keep the heard share of it, so the brain knows what was said.
    if (part && part.type === 'output_audio' && typeof part.transcript === 'string' && availableMs > 0) {
      const keep = Math.floor((part.transcript.length * audioEndMs) / availableMs);
      part.transcript = part.transcript.slice(0, keep);
    }
    this.#emit({
      type: 'conversation.item.truncated',
      item_id: itemId,
      content_index: contentIndex,
      audio_end_ms: audioEndMs,
    });
  }

  #sessionParams(trigger: 'client' | 'vad'): ResponseParams {
    return {
      conversation: 'default',
      trigger,
      instructions: this.session.instructions ?? '',
      tools: structuredClone(this.session.tools ?? []),
      toolChoice: structuredClone(this.session.tool_choice ?? 'auto'),
      outputModalities: [...(this.session.output_modalities ?? ['audio'])],
      metadata: null,
      input: undefined,
      maxOutputTokens: this.session.max_output_tokens ?? 'inf',
      outputFormat: structuredClone(this.session.audio?.output?.format ?? PCM_24K),
      voice: structuredClone(this.session.audio?.output?.voice ?? 'alloy'),
    };
  }

  #activeResponseError(active: ResponseRun): SimulatorServiceError {
    return new SimulatorServiceError(
      ACTIVE_RESPONSE_CODE,
      `Conversation already has an active response in progress: ${active.id}. Wait until the response is finished before creating a new one.`,
    );
  }

  #responseCreate(event: JsonObject): void {
    this.#checkEventKeys(event, ['response']);
    const params = parseResponseRequest(event.response ?? {}, this.#sessionParams('client'), {
      conversation: this.conversation,
      ids: this.#ids,
    });
    const refusal = this.#init.takeRefusal();
    if (refusal) {
      const error = new SimulatorServiceError(
        refusal.code,
        refusal.message,
        refusal.param ?? null,
        refusal.type,
      );
      if (refusal.echoEventId ?? true) throw error;
      this.#sendError(error, null);
      return;
    }
    if (params.conversation === 'default' && this.#activeDefault) {
      throw this.#activeResponseError(this.#activeDefault);
    }
    this.#startResponse(params);
  }

  #startResponse(params: ResponseParams): void {
    const run = new ResponseRun(this.#host, params);
    this.#runs.add(run);
    if (params.conversation === 'default') this.#activeDefault = run;
    run.start();
  }

  #responseCancel(event: JsonObject): void {
    this.#checkEventKeys(event, ['response_id']);
    const responseId = event.response_id;
    if (responseId !== undefined && typeof responseId !== 'string')
      throw invalidType('response_id', 'a string');
    const run =
      responseId === undefined
        ? this.#activeDefault
        : [...this.#runs].find((candidate) => candidate.id === responseId);
    if (!run) {
      throw new SimulatorServiceError(
        'response_cancel_not_active',
        'Cancellation failed: no active response found',
      );
    }
    run.cancel('client_cancelled');
  }
}
