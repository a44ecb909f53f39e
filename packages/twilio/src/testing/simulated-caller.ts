import { type Clock, systemClock, type TimerHandle } from '@parley/core';
import { WebSocket } from 'ws';
import type { MediaStreamOutbound } from '../media-stream-messages.js';

/** Options of {@link SimulatedCaller.dial}. */
export interface SimulatedCallerOptions {
  /** The `ws://` URL of the Media Streams endpoint. */
  url: string;
  /** The clock the caller plays and listens on (audio takes its real duration on it). Default: the system clock. */
  clock?: Clock;
  /** `start.customParameters` (what the TwiML's `<Parameter>`s would carry). */
  customParameters?: Readonly<Record<string, string>>;
  /** Headers of the upgrade request (e.g. an `X-Twilio-Signature`). */
  headers?: Readonly<Record<string, string>>;
  /** `start.callSid`. Default a fixed test value. */
  callSid?: string;
  /** `start.streamSid`. Default a fixed test value. */
  streamSid?: string;
}

const FRAME_BYTES = 160;
const FRAME_MS = 20;
const ULAW_SILENCE = 0xff;

type Queued = { kind: 'audio'; bytes: Uint8Array } | { kind: 'mark'; name: string };

/** An echoed mark: its name and how much of the agent's audio the caller had heard when it was echoed. */
export interface EchoedMark {
  readonly name: string;
  readonly heardBytes: number;
}

/**
 * A phone caller as Twilio presents it on a Media Streams WebSocket, for tests and demos: it sends `connected` and
 * `start`, speaks µ-law 8 kHz in 20 ms `media` frames in real time on its clock (silence between utterances, as a
 * phone line does), plays the agent's audio in real time, echoes each `mark` only once the audio before it has
 * played, honours `clear` (drops the buffered audio; its pending marks come back at once, as Twilio sends them),
 * presses keys (`dtmf`) and hangs up (`stop`, then the socket closes).
 */
export class SimulatedCaller {
  readonly #socket: WebSocket;
  readonly #clock: Clock;
  readonly #streamSid: string;
  #sequence = 1;
  #chunk = 1;
  readonly #speech: Uint8Array[] = [];
  #speechOffset = 0;
  readonly #playback: Queued[] = [];
  readonly #heard: Uint8Array[] = [];
  #heardBytes = 0;
  #receivedBytes = 0;
  readonly #echoed: EchoedMark[] = [];
  readonly #received: MediaStreamOutbound[] = [];
  #clears = 0;
  #timer: TimerHandle | undefined;
  #hungUp = false;
  readonly #closed: Promise<void>;
  #waiters: (() => void)[] = [];

  private constructor(socket: WebSocket, clock: Clock, streamSid: string) {
    this.#socket = socket;
    this.#clock = clock;
    this.#streamSid = streamSid;
    this.#closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('close', () => this.#stop());
    socket.on('message', (data) => this.#onMessage(String(data)));
  }

  /** Connects to `url` as Twilio does for an answered call, sends `connected` and `start`. */
  static async dial(options: SimulatedCallerOptions): Promise<SimulatedCaller> {
    const socket = new WebSocket(options.url, { headers: { ...options.headers } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`The Media Streams endpoint refused the call: HTTP ${response.statusCode}.`)),
      );
    });
    socket.on('error', () => {});
    const streamSid = options.streamSid ?? 'MZ00000000000000000000000000000000';
    const caller = new SimulatedCaller(socket, options.clock ?? systemClock, streamSid);
    caller.#send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    caller.#send({
      event: 'start',
      streamSid,
      start: {
        accountSid: 'AC00000000000000000000000000000000',
        streamSid,
        callSid: options.callSid ?? 'CA00000000000000000000000000000000',
        tracks: ['inbound'],
        customParameters: { ...options.customParameters },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
    });
    caller.#tick();
    return caller;
  }

  /** Says `ulaw` (µ-law 8 kHz) after what the caller is already saying, in real time. */
  say(ulaw: Uint8Array): void {
    this.#speech.push(ulaw);
  }

  /** Presses a key (`0`–`9`, `*`, `#`). */
  pressDigit(digit: string): void {
    this.#send({ event: 'dtmf', streamSid: this.#streamSid, dtmf: { track: 'inbound_track', digit } });
  }

  /** Hangs up: sends `stop` and closes the socket. Resolves once it is closed. */
  async hangUp(): Promise<void> {
    if (!this.#hungUp) {
      this.#hungUp = true;
      this.#send({
        event: 'stop',
        streamSid: this.#streamSid,
        stop: {
          accountSid: 'AC00000000000000000000000000000000',
          callSid: 'CA00000000000000000000000000000000',
        },
      });
      this.#socket.close(1000);
    }
    await this.#closed;
  }

  /** Drops the connection without a `stop` (a network failure). */
  drop(): void {
    this.#hungUp = true;
    this.#socket.terminate();
  }

  /** Resolves once the server closed (or the caller hung up). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** The agent's audio as the caller heard it (µ-law 8 kHz; cleared audio never played). */
  get heardAudio(): Uint8Array {
    return Buffer.concat(this.#heard);
  }

  /** Bytes of the agent's audio the caller has heard (8 per ms). */
  get heardBytes(): number {
    return this.#heardBytes;
  }

  /** Bytes of the agent's audio received, played or not. */
  get receivedBytes(): number {
    return this.#receivedBytes;
  }

  /** The marks echoed so far, in order (those returned by a `clear` are not: their audio was never heard). */
  get echoedMarks(): readonly EchoedMark[] {
    return this.#echoed;
  }

  /** How many `clear` messages arrived. */
  get clears(): number {
    return this.#clears;
  }

  /** Every message the server sent, in order. */
  get received(): readonly MediaStreamOutbound[] {
    return this.#received;
  }

  /** `true` while the caller still has speech to send. */
  get speaking(): boolean {
    return this.#speech.length > 0;
  }

  /** Resolves once `predicate` holds (checked after every message and every played frame). */
  until(predicate: (caller: SimulatedCaller) => boolean): Promise<void> {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (predicate(this)) {
          this.#waiters = this.#waiters.filter((w) => w !== check);
          resolve();
        }
      };
      this.#waiters.push(check);
    });
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #send(message: object): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    this.#socket.send(JSON.stringify({ ...message, sequenceNumber: String(this.#sequence++) }));
  }

  #onMessage(text: string): void {
    let message: MediaStreamOutbound;
    try {
      message = JSON.parse(text) as MediaStreamOutbound;
    } catch {
      return; // Twilio ignores what it cannot read (and reports it as a stream warning)
    }
    this.#received.push(message);
    switch (message.event) {
      case 'media': {
        const bytes = Buffer.from(message.media.payload, 'base64');
        this.#receivedBytes += bytes.length;
        this.#playback.push({ kind: 'audio', bytes });
        break;
      }
      case 'mark':
        this.#playback.push({ kind: 'mark', name: message.mark.name });
        this.#echoPlayed();
        break;
      case 'clear': {
        this.#clears += 1;
        const pending = this.#playback.splice(0);
        for (const entry of pending) {
          if (entry.kind === 'mark')
            this.#send({ event: 'mark', streamSid: this.#streamSid, mark: { name: entry.name } });
        }
        break;
      }
    }
    this.#notify();
  }

  /** Echoes the marks at the head of the queue: all the audio before them has played. */
  #echoPlayed(): void {
    while (this.#playback[0]?.kind === 'mark') {
      const { name } = this.#playback.shift() as { kind: 'mark'; name: string };
      this.#echoed.push({ name, heardBytes: this.#heardBytes });
      this.#send({ event: 'mark', streamSid: this.#streamSid, mark: { name } });
    }
  }

  /** Every 20 ms: one frame of the caller's speech (or line silence) goes out, 20 ms of the agent's audio plays. */
  #tick(): void {
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#socket.readyState !== WebSocket.OPEN) return;
      this.#send({
        event: 'media',
        streamSid: this.#streamSid,
        media: {
          track: 'inbound',
          chunk: String(this.#chunk),
          timestamp: String((this.#chunk - 1) * FRAME_MS),
          payload: Buffer.from(this.#nextFrame()).toString('base64'),
        },
      });
      this.#chunk += 1;
      this.#play(FRAME_BYTES);
      this.#notify();
      this.#tick();
    }, FRAME_MS);
  }

  #nextFrame(): Uint8Array {
    const frame = new Uint8Array(FRAME_BYTES).fill(ULAW_SILENCE);
    let filled = 0;
    while (filled < FRAME_BYTES && this.#speech.length > 0) {
      const head = this.#speech[0] as Uint8Array;
      const take = Math.min(FRAME_BYTES - filled, head.length - this.#speechOffset);
      frame.set(head.subarray(this.#speechOffset, this.#speechOffset + take), filled);
      filled += take;
      this.#speechOffset += take;
      if (this.#speechOffset >= head.length) {
        this.#speech.shift();
        this.#speechOffset = 0;
      }
    }
    return frame;
  }

  #play(budget: number): void {
    let left = budget;
    this.#echoPlayed();
    while (left > 0 && this.#playback[0]?.kind === 'audio') {
      const head = this.#playback[0];
      const take = Math.min(left, head.bytes.length);
      this.#heard.push(head.bytes.subarray(0, take));
      this.#heardBytes += take;
      left -= take;
      if (take === head.bytes.length) this.#playback.shift();
      else head.bytes = head.bytes.subarray(take);
      this.#echoPlayed();
    }
  }

  #stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#notify();
  }
}
