import {
  type Clock,
  isDtmfDigit,
  RealtimePlaybackTracker,
  type RealtimeSession,
  systemClock,
} from '@parley/core';

import { brand, isClock, optionKeys } from '@parley/core/internal';
import type { WebSocket } from 'ws';
import {
  CallEvents,
  type TwilioCallEndReason,
  type TwilioCallEventOf,
  type TwilioCallEventType,
} from './call-events.js';
import { TwilioMediaStreamError } from './errors.js';
import {
  type MediaStreamInbound,
  type MediaStreamOutbound,
  type MediaStreamStart,
  parseMediaStreamMessage,
} from './media-stream-messages.js';
import { OutboundAudio } from './outbound-audio.js';

/** The session of a call, or how to make it once Twilio said which call this is. */
export type TwilioSessionSource<TContext> =
  | RealtimeSession<TContext>
  | ((start: MediaStreamStart) => RealtimeSession<TContext> | Promise<RealtimeSession<TContext>>);

/** Options of a {@link TwilioCall}. */
export interface TwilioCallOptions {
  /**
   * What a DTMF digit also becomes, besides the `dtmf` event: the text of a user message sent to the session
   * (`sendMessage`, which asks for a response), or, to a model that takes its turns by itself (GPT-Live), commentary
   * it speaks about (`appendContext('commentary', …)`). Return `undefined` to send nothing for a digit. Default:
   * nothing.
   */
  dtmfMessage?: (digit: string) => string | undefined;
  /** Close the session when the call ends. Default `true` (the call owns its session). */
  closeSession?: boolean;
  /** Caller audio kept while the session connects, in milliseconds; older audio is dropped. Default 2000. */
  connectBufferMs?: number;
  /**
   * When the call ends while the agent is speaking, the session is interrupted (the model remembers what the caller
   * heard) and its open turns get this long to report (`turn_done`) before the session closes. Default 2000 ms.
   */
  hangUpGraceMs?: number;
  /** The clock of `hangUpGraceMs`. Default: the system clock. */
  clock?: Clock;
}

/** @internal */
export const CALL_OPTION_LIST = {
  dtmfMessage: true,
  closeSession: true,
  connectBufferMs: true,
  hangUpGraceMs: true,
  clock: true,
} as const;
const OPTIONS = optionKeys<TwilioCallOptions>('TwilioCallOptions', CALL_OPTION_LIST);
const BYTES_PER_MS = 8;

/** @internal Checks the values of the call options (their keys are checked by the owner's option list). */
export function checkCallOptions(options: TwilioCallOptions): void {
  if (options.dtmfMessage !== undefined && typeof options.dtmfMessage !== 'function') {
    throw new TwilioMediaStreamError(
      'invalid_option',
      'dtmfMessage must be a function (digit) => string | undefined.',
    );
  }
  const buffer = options.connectBufferMs;
  if (buffer !== undefined && (typeof buffer !== 'number' || !Number.isFinite(buffer) || buffer < 0)) {
    throw new TwilioMediaStreamError(
      'invalid_option',
      `connectBufferMs must be a number of milliseconds >= 0, got ${String(buffer)}.`,
    );
  }
  const grace = options.hangUpGraceMs;
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isFinite(grace) || grace < 0)) {
    throw new TwilioMediaStreamError(
      'invalid_option',
      `hangUpGraceMs must be a number of milliseconds >= 0, got ${String(grace)}.`,
    );
  }
  if (options.clock !== undefined && !isClock(options.clock)) {
    throw new TwilioMediaStreamError(
      'invalid_option',
      'clock must implement now(), setTimeout() and clearTimeout(): pass systemClock (@parley/core), or leave it out.',
    );
  }
}

function notReady(message: string): TwilioMediaStreamError {
  return new TwilioMediaStreamError('twilio_session_not_phone_ready', message);
}

/**
 * One phone call: a Twilio Media Streams WebSocket bridged to one `RealtimeSession`, in µ-law 8 kHz both ways. The
 * caller's audio goes to the session as it arrives; the agent's audio goes to Twilio in 20 ms frames, each followed by
 * a mark whose echo tells the session what the caller heard (the session's playback tracker must take reports: a
 * `ReportedPlaybackTracker`). A barge-in (`audio_interrupted`) sends `clear` at once. `stop`, a dropped socket or
 * `hangUp()` end the call: the session is closed (turn reports and memory written) and everything released.
 */
export class TwilioCall<TContext = unknown> {
  static {
    brand(TwilioCall, 'twilio.TwilioCall');
  }

  readonly #socket: WebSocket;
  readonly #source: TwilioSessionSource<TContext>;
  readonly #options: TwilioCallOptions;
  readonly #events = new CallEvents();
  readonly #outbound: OutboundAudio;
  readonly #unsubscribe: (() => void)[] = [];
  /** Kept until the session is closed: its last turn reports come while the call ends. */
  readonly #unsubscribeSession: (() => void)[] = [];
  #session: RealtimeSession<TContext> | undefined;
  #start: MediaStreamStart | undefined;
  #connected = false;
  #inbound: Uint8Array[] = [];
  #inboundBytes = 0;
  #ended: TwilioCallEndReason | undefined;
  /** Conversation responses started whose `turn_done` has not come yet. */
  readonly #openTurns = new Set<string>();
  #turnsSettled: (() => void) | undefined;
  readonly #done: Promise<TwilioCallEndReason>;
  #resolveDone!: (reason: TwilioCallEndReason) => void;

  constructor(socket: WebSocket, session: TwilioSessionSource<TContext>, options: TwilioCallOptions = {}) {
    OPTIONS.check(options);
    checkCallOptions(options);
    this.#socket = socket;
    this.#source = session;
    this.#options = options;
    this.#done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
    this.#outbound = new OutboundAudio({
      sendMedia: (frame) =>
        this.#send({
          event: 'media',
          streamSid: this.#sid(),
          media: { payload: Buffer.from(frame).toString('base64') },
        }),
      sendMark: (name) => this.#send({ event: 'mark', streamSid: this.#sid(), mark: { name } }),
      sendClear: () => this.#send({ event: 'clear', streamSid: this.#sid() }),
      played: (itemId, ms) => this.#session?.playback.played(itemId, ms),
      finished: (itemId) => this.#session?.playback.finished(itemId),
    });
    if (typeof session !== 'function') this.#adopt(session);
    const onMessage = (data: unknown, isBinary: boolean) => this.#onMessage(data, isBinary);
    const onClose = () => void this.#end('socket_closed');
    const onError = (error: Error) => this.#fail('twilio_socket_error', error, false);
    socket.on('message', onMessage);
    socket.on('close', onClose);
    socket.on('error', onError);
    this.#unsubscribe.push(() => {
      socket.off('message', onMessage);
      socket.off('close', onClose);
      socket.off('error', onError);
    });
    if (socket.readyState !== socket.OPEN && socket.readyState !== socket.CONNECTING)
      void this.#end('socket_closed');
  }

  /** Subscribes to the call's events; returns the function that unsubscribes. */
  on<T extends TwilioCallEventType>(type: T, listener: (event: TwilioCallEventOf<T>) => void): () => void {
    return this.#events.on(type, listener);
  }

  /** The call's session (`undefined` until `start`, when it comes from a factory). */
  get session(): RealtimeSession<TContext> | undefined {
    return this.#session;
  }

  /** What Twilio said in `start` (`undefined` before). */
  get start(): MediaStreamStart | undefined {
    return this.#start;
  }

  /** Resolves with the reason once the call has ended and released everything. */
  get ended(): Promise<TwilioCallEndReason> {
    return this.#done;
  }

  /** Ends the call from the server side: the stream closes (Twilio moves to the next TwiML verb, or hangs up). */
  hangUp(): Promise<TwilioCallEndReason> {
    return this.#end('hang_up');
  }

  #sid(): string {
    return this.#start?.streamSid ?? '';
  }

  #send(message: MediaStreamOutbound): void {
    if (this.#socket.readyState === this.#socket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  #adopt(session: RealtimeSession<TContext>): void {
    if (session.playback.tracker instanceof RealtimePlaybackTracker) {
      throw notReady(
        "The session guesses playback on a clock; on a phone line Twilio's marks say what was heard. Create it with " +
          "playbackTracker: new ReportedPlaybackTracker() and config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw' }.",
      );
    }
    this.#session = session;
    this.#unsubscribeSession.push(
      session.on('audio', (event) => {
        if (this.#start) this.#outbound.push(event.itemId, event.data);
      }),
      session.on('audio_done', (event) => this.#outbound.end(event.itemId)),
      session.on('audio_interrupted', () => {
        if (this.#start) this.#outbound.clear();
      }),
      session.on('response_started', (event) => {
        if (!event.ephemeral) this.#openTurns.add(event.responseId);
      }),
      session.on('turn_done', (event) => {
        this.#openTurns.delete(event.responseId);
        if (this.#openTurns.size === 0) this.#turnsSettled?.();
      }),
      session.on('connection_status', (event) => {
        if (event.status === 'closed') void this.#end('session_ended');
      }),
    );
  }

  #onMessage(data: unknown, isBinary: boolean): void {
    if (this.#ended) return;
    let message: MediaStreamInbound | undefined;
    try {
      if (isBinary)
        throw new TwilioMediaStreamError(
          'twilio_invalid_message',
          'A Media Streams message is binary; Twilio sends JSON text.',
        );
      message = parseMediaStreamMessage(String(data));
    } catch (error) {
      this.#fail('twilio_invalid_message', error, false);
      return;
    }
    if (!message) return;
    switch (message.event) {
      case 'start':
        void this.#begin(message.start);
        return;
      case 'media':
        if (message.media.track === undefined || message.media.track === 'inbound') {
          this.#caller(Buffer.from(message.media.payload, 'base64'));
        }
        return;
      case 'mark':
        this.#outbound.echoed(message.mark.name);
        return;
      case 'dtmf':
        this.#dtmf(message.dtmf.digit);
        return;
      case 'stop':
        void this.#end('stop');
        return;
      case 'connected':
        return;
    }
  }

  async #begin(start: MediaStreamStart): Promise<void> {
    if (this.#start) return;
    this.#start = start;
    this.#events.emit({ type: 'start', start });
    try {
      if (!this.#session) {
        const made = await (
          this.#source as (
            start: MediaStreamStart,
          ) => RealtimeSession<TContext> | Promise<RealtimeSession<TContext>>
        )(start);
        if (this.#ended) {
          if (this.#options.closeSession !== false) await made.close();
          return;
        }
        try {
          this.#adopt(made);
        } catch (error) {
          // The call made it, so the call releases it.
          if (this.#options.closeSession !== false) await made.close().catch(() => {});
          throw error;
        }
      }
      const session = this.#session as RealtimeSession<TContext>;
      if (session.status === 'idle' || session.status === 'disconnected') await session.connect();
      if (this.#ended) return;
      // What the provider confirmed (a format left out is the session's default, PCM16); a provider that reports
      // nothing is taken at its word.
      const confirmed = session.confirmedConfig;
      for (const key of ['inputAudioFormat', 'outputAudioFormat'] as const) {
        const format = confirmed === undefined ? 'g711_ulaw' : (confirmed[key] ?? 'pcm16');
        if (format !== 'g711_ulaw') {
          throw notReady(
            `The session's ${key} is ${format}; a Twilio call carries µ-law 8 kHz both ways: create the session with ` +
              "config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw' }.",
          );
        }
      }
      this.#connected = true;
      const held = this.#inbound;
      this.#inbound = [];
      this.#inboundBytes = 0;
      for (const audio of held) this.#caller(audio);
    } catch (error) {
      // A call that ended meanwhile closed the session under its connect: nothing failed.
      if (this.#ended) return;
      this.#fail(
        error instanceof TwilioMediaStreamError ? error.code : 'session_connect_failed',
        error,
        true,
      );
    }
  }

  #caller(audio: Uint8Array): void {
    const session = this.#session;
    if (!this.#connected || !session) {
      const limit = (this.#options.connectBufferMs ?? 2000) * BYTES_PER_MS;
      this.#inbound.push(audio);
      this.#inboundBytes += audio.length;
      while (this.#inboundBytes > limit && this.#inbound.length > 0) {
        this.#inboundBytes -= (this.#inbound.shift() as Uint8Array).length;
      }
      return;
    }
    if (session.status !== 'connected') return;
    try {
      session.sendAudio(audio);
    } catch (error) {
      this.#fail('caller_audio_not_sent', error, false);
    }
  }

  #dtmf(digit: string): void {
    this.#events.emit({ type: 'dtmf', digit });
    const session = this.#session;
    // The session reports it too (a `dtmf` event from the line), beside the keys a provider's own call reports.
    if (session && isDtmfDigit(digit)) session.receiveDtmf(digit);
    const text = this.#options.dtmfMessage?.(digit);
    if (text === undefined || !session || session.status !== 'connected') return;
    try {
      // A model that takes its turns by itself (no response requests) takes the key as context to speak about.
      const { responseRequests, contextAppends } = session.capabilities;
      if (!responseRequests && contextAppends) session.appendContext('commentary', text);
      else session.sendMessage(text);
    } catch (error) {
      this.#fail('dtmf_not_sent', error, false);
    }
  }

  #fail(code: string, cause: unknown, fatal: boolean): void {
    const error = cause instanceof Error ? cause : new Error(String(cause));
    this.#events.emit({ type: 'error', code, message: error.message, error, fatal });
    if (fatal) void this.#end('session_ended');
  }

  /**
   * The caller stopped hearing: what is still playing is interrupted (the model keeps what was heard), and the open
   * turns get `hangUpGraceMs` to report before the session closes.
   */
  async #settleTurns(session: RealtimeSession<TContext>): Promise<void> {
    if (this.#openTurns.size === 0 || session.status !== 'connected') return;
    const clock = this.#options.clock ?? systemClock;
    let timer: unknown;
    const settled = new Promise<void>((resolve) => {
      this.#turnsSettled = resolve;
      timer = clock.setTimeout(resolve, this.#options.hangUpGraceMs ?? 2000);
    });
    try {
      session.interrupt();
    } catch (error) {
      this.#fail('session_not_interrupted', error, false);
    }
    if (this.#openTurns.size > 0) await settled;
    clock.clearTimeout(timer);
    this.#turnsSettled = undefined;
  }

  async #end(reason: TwilioCallEndReason): Promise<TwilioCallEndReason> {
    if (this.#ended) return this.#done;
    this.#ended = reason;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    // A socket error after the end has nothing left to tell; without a listener it would crash the process.
    this.#socket.on('error', () => {});
    this.#outbound.release();
    this.#inbound = [];
    this.#inboundBytes = 0;
    if (
      this.#socket.readyState === this.#socket.OPEN ||
      this.#socket.readyState === this.#socket.CONNECTING
    ) {
      this.#socket.close(1000);
    }
    try {
      if (this.#session && this.#options.closeSession !== false) {
        await this.#settleTurns(this.#session);
        await this.#session.close();
      }
    } catch (error) {
      this.#fail('session_close_failed', error, false);
    }
    for (const unsubscribe of this.#unsubscribeSession.splice(0)) unsubscribe();
    this.#events.emit({ type: 'ended', reason });
    this.#resolveDone(reason);
    return reason;
  }
}
