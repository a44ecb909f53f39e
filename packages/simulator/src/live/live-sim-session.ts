import type { Clock, TimerHandle } from '@parley/core';
import type {
  LiveAudioFormat,
  LiveCloseReason,
  LiveErrorEvent,
  LiveSessionResource,
} from '@parley/openai/wire';
import {
  decodeBase64,
  encodeBase64,
  isBase64,
  isPlainObject,
  LIVE_PRIMARY_CLIENT_EVENTS,
  LIVE_SIDEBAND_CLIENT_EVENTS,
  type LiveAppendKind,
  type LiveBackendInputItem,
  type LiveBackendStreamEvent,
  type LiveDecisionMessage,
  type LiveServerEvent,
} from '@parley/openai/wire';
import { bytesPerMs, fromPcm24, toPcm24 } from '../shared/audio-codec.js';
import type { IdGenerator } from '../shared/ids.js';
import { invalidType, missingParameter, SimulatorServiceError } from '../shared/sim-errors.js';
import { ResponsesBackend } from './live-backend.js';
import { type LiveBrain, type LiveUtterance, reactionsOf } from './live-brain.js';
import { applyUpdate, estimateTokens } from './live-config.js';
import { InputListener, type LiveTranscriber } from './live-listener.js';
import { layOut, OutputTrack, type TimedText } from './live-output-track.js';
import type { LiveSessionPeer, LiveSimulatorSocket } from './live-sim-socket.js';

/** Timing and behaviour knobs of a simulated session (all timeline milliseconds unless said otherwise). */
export interface LiveSessionTuning {
  msPerChar: number;
  appendLatencyMs: number;
  endOfUtteranceMs: number;
  usageIntervalMs: number;
  speechThreshold: number;
  acknowledgement: string;
  /** Speech after which the user's first words are transcribed while they go on speaking; `undefined`: at the end. */
  interimTranscriptMs: number | undefined;
  /** Wall-clock delay before `session.updated`. */
  updateLatencyMs: number;
  transcribe: LiveTranscriber;
}

export const APPEND_TOKEN_LIMIT = 500;
const FIXTURE_LIMIT_MS = 30_000;

/** A server event that carries `event_id`, before the session stamps it. */
type Unstamped = LiveServerEvent extends infer E
  ? E extends { event_id: string }
    ? Omit<E, 'event_id' | 'client_event_id'>
    : never
  : never;

interface QueuedAppend {
  kind: LiveAppendKind;
  content: string;
  delegationId: string | null;
  clientEventId: string | undefined;
  atMs: number;
}

/** A delegation the simulated voice model made, as the simulator tracks it. */
export interface LiveSimulatorDelegation {
  readonly id: string;
  readonly target: 'client' | 'responses';
  readonly offsetMs: number;
  /** Context appends that answered it. */
  readonly answers: { kind: LiveAppendKind; content: string }[];
}

/**
 * One simulated GPT-Live session: the timeline (advanced only by input audio), the ear, the output track, context
 * appends with their acknowledgements, delegations and the Responses backend, mute, fixtures, usage and close. Every
 * attached socket (the primary and any sidebands) sees its events.
 */
export class LiveSimulatorSession {
  readonly delegations = new Map<string, LiveSimulatorDelegation>();
  /** Keys sent to the caller of a SIP call (`transport.dtmf.send`), in order. */
  readonly digitsSent: string[] = [];
  readonly #ids: IdGenerator;
  readonly #clock: Clock;
  readonly #tuning: LiveSessionTuning;
  readonly #brain: () => LiveBrain;
  readonly #format: LiveAudioFormat;
  readonly #listener: InputListener;
  readonly #track: OutputTrack;
  readonly #backend: ResponsesBackend;
  readonly #onClosed: (session: LiveSimulatorSession) => void;
  #resource: LiveSessionResource;
  #primary: LiveSessionPeer;
  /** The session answers a SIP call: its primary is the phone line, and DTMF goes over its sidebands. */
  readonly #phoneCall: boolean;
  #sidebands = new Set<LiveSimulatorSocket>();
  #timelineMs = 0;
  #muted = false;
  #appends: QueuedAppend[] = [];
  #acks: number[] = [];
  #nextUsageMs: number;
  #closed = false;
  #expiry: TimerHandle;
  #timers = new Set<TimerHandle>();
  #decisionEventIds = new Set<string>();
  #decisionItems = new Set<string>();
  #fixtureEventId: string | undefined;
  #transcript: { role: 'user' | 'assistant'; text: string; startMs: number }[] = [];
  /** The fragment of the current utterance already sent while the user spoke (interim transcription). */
  #interim: TimedText | undefined;

  constructor(deps: {
    resource: LiveSessionResource;
    primary: LiveSessionPeer;
    /** The session answers a SIP call (its primary is the phone line). Default `false`. */
    phoneCall?: boolean;
    ids: IdGenerator;
    clock: Clock;
    tuning: LiveSessionTuning;
    brain: () => LiveBrain;
    lifetimeMs: number;
    onClosed: (session: LiveSimulatorSession) => void;
  }) {
    this.#resource = deps.resource;
    this.#primary = deps.primary;
    this.#phoneCall = deps.phoneCall === true;
    this.#ids = deps.ids;
    this.#clock = deps.clock;
    this.#tuning = deps.tuning;
    this.#brain = deps.brain;
    this.#onClosed = deps.onClosed;
    this.#format = deps.resource.audio?.format ?? { type: 'audio/pcm', rate: 24000 };
    this.#listener = new InputListener({
      threshold: deps.tuning.speechThreshold,
      endSilenceMs: deps.tuning.endOfUtteranceMs,
      transcribe: deps.tuning.transcribe,
      interimMs: deps.tuning.interimTranscriptMs,
    });
    this.#track = new OutputTrack(deps.tuning.msPerChar);
    this.#backend = new ResponsesBackend({
      ids: deps.ids,
      emit: (event, delegationId, clientEventId) => this.#emitBackend(event, delegationId, clientEventId),
      say: (text) => this.#track.say(text, this.#timelineMs),
    });
    this.#nextUsageMs = deps.tuning.usageIntervalMs;
    this.#expiry = deps.clock.setTimeout(() => this.close('expired'), deps.lifetimeMs);
  }

  get id(): string {
    return this.#resource.id;
  }

  /** The resolved session as `session.started` / `session.updated` report it. */
  get resource(): LiveSessionResource {
    return this.#resource;
  }

  /** Session time in ms: the duration of all input audio received so far. */
  get timelineMs(): number {
    return this.#timelineMs;
  }

  get muted(): boolean {
    return this.#muted;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The model is speaking (or has speech queued). */
  get speaking(): boolean {
    return this.#track.speaking;
  }

  /** What was said so far, by whom, as the model transcribed it. */
  get transcript(): readonly { role: 'user' | 'assistant'; text: string; startMs: number }[] {
    return this.#transcript;
  }

  /** Backend input budget used (Responses delegation). */
  get backendBudget(): { items: number; bytes: number } {
    return this.#backend.used;
  }

  /** Attaches a sideband observer. */
  attach(socket: LiveSimulatorSocket): void {
    this.#sidebands.add(socket);
    void socket.closed.then(() => this.#sidebands.delete(socket));
  }

  /** Cuts the primary socket without a closing handshake, like a dropped network; the session ends (`connection_lost`). */
  dropPrimary(): void {
    this.#primary.terminate();
  }

  /** Resolves when the primary socket closed (by either side). */
  get primaryClosed(): Promise<{ code: number; reason: string }> {
    return this.#primary.closed;
  }

  /**
   * The user is still speaking: the model has transcribed the start of an utterance, `text`, and sends it as
   * `session.input_transcript.delta` fragments from the current timeline position on. The utterance has not ended:
   * it gets no reaction and does not enter {@link transcript}. Followed by {@link dropPrimary}, it is a connection cut
   * mid-transcription.
   */
  transcribeUnfinished(text: string): void {
    this.#transcriptDeltas(
      'session.input_transcript.delta',
      layOut(text, this.#timelineMs, this.#tuning.msPerChar),
    );
  }

  /** An `error` that answers no client event (a service-side failure); the session continues. */
  serverError(code: string, message: string): void {
    this.#broadcast(this.#event({ type: 'error', error: { type: 'server_error', code, message } }));
  }

  /**
   * The service ends the session on a failure: `error` (when given) goes out first, then every socket closes with
   * `closeCode` and no `session.closed`, as the service ends a session over quota or a connection it refuses.
   */
  endWithFailure(options: {
    closeCode: number;
    reason?: string;
    error?: { code: string; message: string };
  }): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearTimers();
    if (options.error) {
      const { code, message } = options.error;
      this.#broadcast(
        this.#event({ type: 'error', error: { type: 'invalid_request_error', code, message } }),
      );
    }
    const reason = options.reason ?? '';
    this.#primary.close(options.closeCode, reason);
    for (const sideband of this.#sidebands) sideband.close(options.closeCode, reason);
    this.#onClosed(this);
  }

  /**
   * The caller pressed a key on the phone call this session answers: `transport.dtmf.received`, as the service sends
   * it on a SIP call (a test control: the simulator has no SIP leg of its own).
   */
  callerPressed(digit: string): void {
    this.#broadcast(this.#event({ type: 'transport.dtmf.received', event: digit }));
  }

  /** The primary socket went away without `session.close`: the session ends for its sidebands. */
  primaryLost(): void {
    this.close('connection_lost');
  }

  #broadcast(event: LiveServerEvent): void {
    this.#primary.send(event);
    for (const sideband of this.#sidebands) sideband.send(event);
  }

  #event(event: Unstamped, clientEventId?: string): LiveServerEvent {
    return {
      ...event,
      event_id: this.#ids.next('event'),
      ...(clientEventId !== undefined && { client_event_id: clientEventId }),
    } as LiveServerEvent;
  }

  /** Sends `error` to one socket; the session continues. */
  fail(socket: LiveSessionPeer, error: SimulatorServiceError, clientEventId?: string): void {
    socket.send(
      this.#event(
        {
          type: 'error',
          error: liveErrorBody(error, clientEventId),
        },
        clientEventId,
      ),
    );
  }

  /** A client event from one of the session's sockets. */
  handle(socket: LiveSessionPeer, raw: unknown): void {
    if (this.#closed) return;
    const event = isPlainObject(raw) ? raw : {};
    const clientEventId = typeof event.event_id === 'string' ? event.event_id : undefined;
    try {
      this.#dispatch(socket, event, clientEventId);
    } catch (error) {
      if (!(error instanceof SimulatorServiceError)) throw error;
      this.fail(socket, error, clientEventId);
    }
  }

  #dispatch(
    socket: LiveSessionPeer,
    event: Record<string, unknown>,
    clientEventId: string | undefined,
  ): void {
    const accepted: readonly string[] =
      socket.role === 'primary' ? LIVE_PRIMARY_CLIENT_EVENTS : LIVE_SIDEBAND_CLIENT_EVENTS;
    const type = event.type;
    if (typeof type !== 'string' || !accepted.includes(type)) {
      throw new SimulatorServiceError(
        'invalid_event',
        `Unsupported client event '${String(type)}'. Supported client events: ${accepted.join(', ')}.`,
        'type',
      );
    }
    switch (type) {
      case 'session.start':
        throw new SimulatorServiceError(
          'session_already_started',
          'The session has already started.',
          'type',
        );
      case 'session.update': {
        this.#resource = applyUpdate(this.#resource, event.session);
        this.#later(this.#tuning.updateLatencyMs, () =>
          this.#broadcast(this.#event({ type: 'session.updated', session: this.#resource }, clientEventId)),
        );
        return;
      }
      case 'session.input_audio.append':
        this.#input(event.audio);
        return;
      case 'session.input_audio.mute':
      case 'session.input_audio.unmute': {
        this.#muted = type === 'session.input_audio.mute';
        this.#broadcast(
          this.#event(
            { type: this.#muted ? 'session.input_audio.muted' : 'session.input_audio.unmuted' },
            clientEventId,
          ),
        );
        return;
      }
      case 'session.output_audio.fixture.play':
        this.#fixture(event.audio, clientEventId);
        return;
      case 'session.instructions.append':
      case 'session.thinking.append':
      case 'session.commentary.append':
        this.#append(type.split('.')[1] as LiveAppendKind, event, clientEventId);
        return;
      case 'response.item.create':
      case 'response.create': {
        if (this.#resource.delegation?.type !== 'responses') {
          throw new SimulatorServiceError(
            'invalid_request_error',
            `${type} requires Responses delegation.`,
            'type',
          );
        }
        if (type === 'response.create') {
          this.#backend.create(clientEventId);
          return;
        }
        if (!isPlainObject(event.item) || typeof event.item.type !== 'string') throw missingParameter('item');
        this.#backend.addItem(event.item as LiveBackendInputItem);
        return;
      }
      case 'decision.create': {
        if (clientEventId === undefined) throw missingParameter('event_id');
        if (this.#decisionEventIds.has(clientEventId)) {
          throw new SimulatorServiceError(
            'duplicate_event_id',
            'decision.create event_id was already used.',
            'event_id',
          );
        }
        this.#decisionEventIds.add(clientEventId);
        return;
      }
      case 'decision.item.create': {
        if (!isPlainObject(event.item)) throw missingParameter('item');
        const id = typeof event.item.id === 'string' ? event.item.id : this.#ids.next('ditem');
        this.#decisionItems.add(id);
        socket.send(
          this.#event(
            { type: 'decision.item.created', item: { ...(event.item as LiveDecisionMessage), id } },
            clientEventId,
          ),
        );
        return;
      }
      case 'decision.item.delete': {
        const id = event.item_id;
        if (typeof id !== 'string' || !this.#decisionItems.delete(id)) {
          throw new SimulatorServiceError('invalid_value', `No decision item '${String(id)}'.`, 'item_id');
        }
        socket.send(this.#event({ type: 'decision.item.deleted', item_id: id }, clientEventId));
        return;
      }
      case 'transport.dtmf.send': {
        if (!this.#phoneCall || socket.role !== 'sideband') {
          throw new SimulatorServiceError(
            'invalid_request_error',
            'DTMF can only be sent on a SIP call.',
            'type',
          );
        }
        const digit = event.event;
        if (typeof digit !== 'string' || !/^[0-9A-D*#]$/.test(digit)) {
          throw new SimulatorServiceError(
            'invalid_value',
            'event must be one key: 0-9, A-D, * or #.',
            'event',
          );
        }
        this.digitsSent.push(digit);
        socket.send(this.#event({ type: 'transport.dtmf.sent', event: digit }, clientEventId));
        return;
      }
      case 'session.close':
        this.close('close_requested', clientEventId);
        return;
    }
  }

  #later(ms: number, run: () => void): void {
    if (ms <= 0) {
      run();
      return;
    }
    const handle = this.#clock.setTimeout(() => {
      this.#timers.delete(handle);
      if (!this.#closed) run();
    }, ms);
    this.#timers.add(handle);
  }

  #append(kind: LiveAppendKind, event: Record<string, unknown>, clientEventId: string | undefined): void {
    if (typeof event.content !== 'string') throw invalidType('content', 'a string');
    if (!('delegation_id' in event)) throw missingParameter('delegation_id');
    const delegationId = event.delegation_id;
    if (delegationId !== null && typeof delegationId !== 'string') {
      throw invalidType('delegation_id', 'a string or null');
    }
    if (estimateTokens(event.content) > APPEND_TOKEN_LIMIT) {
      throw new SimulatorServiceError(
        'invalid_value',
        `Context append text must not exceed ${APPEND_TOKEN_LIMIT} tokens`,
        'content',
      );
    }
    if (this.#track.fixtureActive) {
      throw new SimulatorServiceError(
        'fixture_active',
        'Context cannot be appended while a fixture plays.',
        'type',
      );
    }
    if (delegationId !== null) {
      if (this.#resource.delegation?.type === 'responses') {
        throw new SimulatorServiceError(
          'invalid_value',
          'delegation_id must be null under Responses delegation.',
          'delegation_id',
        );
      }
      if (!this.delegations.has(delegationId)) {
        throw new SimulatorServiceError(
          'invalid_value',
          `Unknown delegation '${delegationId}'.`,
          'delegation_id',
        );
      }
    }
    // Any commentary or thinking cancels every pending spoken acknowledgement.
    if (kind !== 'instructions') this.#acks = [];
    const after = this.#appends.at(-1)?.atMs ?? 0;
    this.#appends.push({
      kind,
      content: event.content,
      delegationId,
      clientEventId,
      atMs: Math.max(after, this.#timelineMs + this.#tuning.appendLatencyMs),
    });
  }

  #fixture(audio: unknown, clientEventId: string | undefined): void {
    if (typeof audio !== 'string' || !isBase64(audio))
      throw invalidType('audio', 'base64 PCM16 24 kHz audio');
    const pcm24 = decodeBase64(audio);
    if (pcm24.length % 2 !== 0 || pcm24.length === 0) {
      throw new SimulatorServiceError('invalid_value', 'Fixture audio must be PCM16 mono 24 kHz.', 'audio');
    }
    if (pcm24.length / 48 > FIXTURE_LIMIT_MS) {
      throw new SimulatorServiceError('invalid_value', 'Fixture audio must not exceed 30 seconds.', 'audio');
    }
    if (this.#track.fixtureActive) {
      throw new SimulatorServiceError('fixture_active', 'A fixture is already playing.', 'type');
    }
    this.#listener.reset();
    this.#track.playFixture(pcm24, this.#timelineMs);
    this.#fixtureEventId = clientEventId;
    this.#broadcast(this.#event({ type: 'session.output_audio.fixture.playing' }, clientEventId));
  }

  #input(audio: unknown): void {
    if (typeof audio !== 'string' || !isBase64(audio)) throw invalidType('audio', 'base64 audio');
    const bytes = decodeBase64(audio);
    const perMs = bytesPerMs(this.#format);
    const sampleBytes = this.#format.type === 'audio/pcm' ? 2 : 1;
    if (bytes.length % sampleBytes !== 0) {
      throw new SimulatorServiceError('invalid_value', 'Audio must hold whole samples.', 'audio');
    }
    const startMs = this.#timelineMs;
    const endMs = startMs + bytes.length / perMs;
    const pcm24 = toPcm24(this.#format, bytes);
    for (const sideband of this.#sidebands) {
      sideband.send({ type: 'session.input_audio.append', audio: encodeBase64(pcm24) });
    }
    const heard = this.#muted || this.#track.fixtureActive ? new Uint8Array(pcm24.length) : pcm24;
    const span = this.#listener.hear(heard, startMs, endMs);
    // Barge-in: the model stops talking on the server side; no event tells the client.
    if (span.speechStartMs !== undefined && this.#track.speaking) this.#track.interrupt(span.speechStartMs);
    this.#timelineMs = endMs;
    if (span.interim) this.#heardSoFar(span.interim);
    if (span.utterance) this.#heard(span.utterance);
    this.#flushAppends();
    this.#flushAcks();
    this.#output(startMs, endMs);
    this.#usage();
  }

  #heard(utterance: LiveUtterance): void {
    if (utterance.text.trim().length === 0) return;
    this.#transcript.push({ role: 'user', text: utterance.text, startMs: utterance.startMs });
    this.#transcriptDeltas('session.input_transcript.delta', this.#restOf(utterance));
    for (const reaction of reactionsOf(this.#brain()(utterance))) {
      if (reaction.type === 'speak') this.#track.say(reaction.text, this.#timelineMs);
      if (reaction.type !== 'delegate') continue;
      const id = this.#ids.next('dlg');
      const responses = this.#resource.delegation?.type === 'responses';
      this.delegations.set(id, {
        id,
        target: responses ? 'responses' : 'client',
        offsetMs: this.#timelineMs,
        answers: [],
      });
      const backend = responses ? this.#backend.begin(id, reaction) : undefined;
      this.#broadcast(
        this.#event({
          type: 'session.delegation.created',
          offset_ms: this.#timelineMs,
          delegation: {
            id,
            type: 'delegation',
            target: responses ? 'responses' : 'client',
            ...(backend && { response_id: backend.responseId }),
          },
        }),
      );
      this.#acks.push(this.#timelineMs + (this.#resource.delegation?.acknowledgement_delay_ms ?? 0));
      backend?.run();
    }
  }

  /** Interim transcription: the first word of what the user is saying, while they go on. */
  #heardSoFar(utterance: LiveUtterance): void {
    const [word] = utterance.text.split(/\s+/).filter((w) => w.length > 0);
    if (word === undefined) return;
    this.#interim = { delta: word, startMs: utterance.startMs, endMs: utterance.endMs };
    this.#transcriptDeltas('session.input_transcript.delta', [this.#interim]);
  }

  /** The fragments of a finished utterance not sent yet, laid out over the rest of its span. */
  #restOf(utterance: LiveUtterance): TimedText[] {
    const interim = this.#interim;
    this.#interim = undefined;
    if (!interim) {
      const span = Math.max(1, utterance.endMs - utterance.startMs);
      return layOut(utterance.text, utterance.startMs, span / Math.max(1, utterance.text.length));
    }
    const rest = utterance.text.trimStart().slice(interim.delta.length);
    const from = Math.min(interim.endMs, utterance.endMs);
    return layOut(rest, from, Math.max(1, utterance.endMs - from) / Math.max(1, rest.length));
  }

  #transcriptDeltas(
    type: 'session.input_transcript.delta' | 'session.output_transcript.delta',
    fragments: readonly TimedText[],
  ): void {
    for (const f of fragments) {
      this.#broadcast(this.#event({ type, delta: f.delta, start_ms: f.startMs, end_ms: f.endMs }));
    }
  }

  #flushAppends(): void {
    while (this.#appends[0] && this.#appends[0].atMs <= this.#timelineMs) {
      const append = this.#appends.shift() as QueuedAppend;
      this.#broadcast(
        this.#event(
          { type: `session.${append.kind}.appended`, start_ms: append.atMs, end_ms: append.atMs },
          append.clientEventId,
        ),
      );
      if (append.delegationId !== null) {
        this.delegations
          .get(append.delegationId)
          ?.answers.push({ kind: append.kind, content: append.content });
      }
      if (append.kind === 'commentary') this.#track.say(append.content, append.atMs);
    }
  }

  #flushAcks(): void {
    const due = this.#acks.filter((at) => at <= this.#timelineMs);
    if (due.length === 0) return;
    this.#acks = this.#acks.filter((at) => at > this.#timelineMs);
    this.#track.say(this.#tuning.acknowledgement, this.#timelineMs);
  }

  #output(startMs: number, endMs: number): void {
    const rendered = this.#track.render(startMs, endMs);
    if (rendered.transcript.length > 0) {
      this.#transcript.push({
        role: 'assistant',
        text: rendered.transcript.map((t) => t.delta).join(''),
        startMs: rendered.transcript[0]?.startMs ?? startMs,
      });
    }
    this.#primary.send({
      type: 'session.output_audio.delta',
      delta: encodeBase64(fromPcm24(this.#format, rendered.pcm24)),
    });
    if (this.#sidebands.size > 0) {
      const reflection = encodeBase64(rendered.pcm24);
      for (const sideband of this.#sidebands) {
        sideband.send({
          type: 'session.output_audio.delta',
          delta: reflection,
          start_ms: startMs,
          end_ms: endMs,
        });
      }
    }
    this.#transcriptDeltas('session.output_transcript.delta', rendered.transcript);
    if (rendered.fixtureDrained) {
      this.#broadcast(this.#event({ type: 'session.output_audio.fixture.played' }, this.#fixtureEventId));
    }
  }

  #usage(): void {
    while (this.#timelineMs >= this.#nextUsageMs) {
      this.#nextUsageMs += this.#tuning.usageIntervalMs;
      this.#broadcast(this.#usageEvent());
    }
  }

  #usageEvent(): LiveServerEvent {
    return this.#event({
      type: 'session.usage.updated',
      usage: { seconds: this.#seconds() },
      context_window: { usage_ratio: Math.min(1, this.#timelineMs / 3_600_000) },
    });
  }

  #seconds(): number {
    return Math.round(this.#timelineMs) / 1000;
  }

  #emitBackend(event: LiveBackendStreamEvent, delegationId: string | null, clientEventId?: string): void {
    this.#broadcast(
      this.#event({ type: 'response.event', delegation_id: delegationId, event }, clientEventId),
    );
  }

  #clearTimers(): void {
    this.#clock.clearTimeout(this.#expiry);
    for (const timer of this.#timers) this.#clock.clearTimeout(timer);
    this.#timers.clear();
  }

  /**
   * Ends the session: final usage, `session.closed`, then every socket closes with `closeCode` (default 1000).
   * Idempotent.
   */
  close(reason: LiveCloseReason, clientEventId?: string, closeCode = 1000): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearTimers();
    this.#broadcast(this.#usageEvent());
    this.#broadcast(
      this.#event(
        { type: 'session.closed', reason, session: this.#resource, usage: { seconds: this.#seconds() } },
        clientEventId,
      ),
    );
    this.#primary.close(closeCode, reason);
    for (const sideband of this.#sidebands) sideband.close(closeCode, reason);
    this.#onClosed(this);
  }
}

/** The `error` of GPT-Live's `error` event for a refused client event (`client_event_id` names it, when it had one). */
export function liveErrorBody(error: SimulatorServiceError, clientEventId?: string): LiveErrorEvent['error'] {
  return {
    type: error.errorType,
    code: error.code ?? 'invalid_request_error',
    message: error.message,
    ...(error.param !== null && { param: error.param }),
    ...(clientEventId !== undefined && { client_event_id: clientEventId }),
  };
}
