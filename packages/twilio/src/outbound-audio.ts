/** 20 ms of µ-law at 8 kHz: the frame Twilio plays without jitter. */
export const FRAME_BYTES = 160;
/** µ-law silence, used to pad the last frame of a message. */
const ULAW_SILENCE = 0xff;
const BYTES_PER_MS = 8;
/** Marks waiting for their echo beyond this many are forgotten oldest first (10 minutes of frames, Twilio's cap). */
const PENDING_MARKS_LIMIT = 30_000;

/** Where the outbound audio goes: Twilio's socket and the session's playback reports. */
export interface OutboundAudioPort {
  sendMedia(frame: Uint8Array): void;
  sendMark(name: string): void;
  sendClear(): void;
  /** The caller has heard the first `ms` milliseconds of `itemId`. */
  played(itemId: string, ms: number): void;
  /** `itemId` played to its end. */
  finished(itemId: string): void;
}

interface PendingMark {
  readonly itemId: string;
  /** Milliseconds of the item's own audio (padding excluded) played once this mark is echoed. */
  readonly ms: number;
  /** The item's last mark: its echo means the whole message was heard. */
  readonly last: boolean;
}

interface Message {
  readonly itemId: string;
  /** Bytes of the message sent in whole frames so far. */
  sentBytes: number;
  /** Audio that does not fill a frame yet. */
  rest: Uint8Array;
  done: boolean;
  /** Marks of this message not echoed yet. */
  unechoed: number;
}

/**
 * The agent's audio on its way to the caller: re-framed into fixed 20 ms frames (µ-law 8 kHz), each followed by a
 * mark. Twilio echoes a mark once the audio before it has played, so each echo is the truth of what the caller heard,
 * reported to the session; a `clear` forgets every mark not echoed yet (Twilio echoes them all at once as it
 * discards their audio: they were never heard).
 */
export class OutboundAudio {
  readonly #port: OutboundAudioPort;
  readonly #pending = new Map<string, PendingMark>();
  #messages = new Map<string, Message>();
  #current: Message | undefined;
  #nextMark = 1;

  constructor(port: OutboundAudioPort) {
    this.#port = port;
  }

  /** Audio of message `itemId` (in the order the caller hears it). */
  push(itemId: string, audio: Uint8Array): void {
    let message = this.#current;
    if (message?.itemId !== itemId) {
      if (message) this.#flush(message);
      message = this.#messages.get(itemId);
      if (!message) {
        message = { itemId, sentBytes: 0, rest: new Uint8Array(0), done: false, unechoed: 0 };
        this.#messages.set(itemId, message);
      }
      this.#current = message;
    }
    if (message.done) return;
    let data = audio;
    if (message.rest.length > 0) {
      data = new Uint8Array(message.rest.length + audio.length);
      data.set(message.rest);
      data.set(audio, message.rest.length);
    }
    let offset = 0;
    for (; offset + FRAME_BYTES <= data.length; offset += FRAME_BYTES) {
      message.sentBytes += FRAME_BYTES;
      this.#send(message, data.subarray(offset, offset + FRAME_BYTES), false);
    }
    message.rest = offset === data.length ? new Uint8Array(0) : data.slice(offset);
  }

  /** Message `itemId` has no more audio: its last partial frame goes out (padded with silence). */
  end(itemId: string): void {
    const message = this.#messages.get(itemId);
    if (!message || message.done) return;
    this.#flush(message);
    if (this.#current === message) this.#current = undefined;
  }

  /** Twilio echoed mark `name`. Marks this bridge did not send, or cleared, are ignored. */
  echoed(name: string): void {
    const mark = this.#pending.get(name);
    if (!mark) return;
    this.#pending.delete(name);
    const message = this.#messages.get(mark.itemId);
    if (message) message.unechoed -= 1;
    this.#port.played(mark.itemId, mark.ms);
    if (mark.last) {
      this.#messages.delete(mark.itemId);
      this.#port.finished(mark.itemId);
    }
  }

  /** Barge-in: Twilio discards what it has buffered; nothing not echoed yet will be heard. */
  clear(): void {
    this.#pending.clear();
    this.#messages = new Map();
    this.#current = undefined;
    this.#port.sendClear();
  }

  /** The call ended: every mark is forgotten (nothing more will be heard). */
  release(): void {
    this.#pending.clear();
    this.#messages = new Map();
    this.#current = undefined;
  }

  /** Marks sent and not echoed yet. */
  get pendingMarks(): number {
    return this.#pending.size;
  }

  #flush(message: Message): void {
    message.done = true;
    const rest = message.rest;
    message.rest = new Uint8Array(0);
    if (rest.length > 0) {
      const frame = new Uint8Array(FRAME_BYTES).fill(ULAW_SILENCE);
      frame.set(rest);
      message.sentBytes += rest.length;
      this.#send(message, frame, true);
    } else if (message.unechoed > 0) {
      // The last whole frame's mark is already out: it now stands for the message's end.
      const last = [...this.#pending.entries()].reverse().find(([, mark]) => mark.itemId === message.itemId);
      if (last) this.#pending.set(last[0], { ...last[1], last: true });
    } else {
      this.#messages.delete(message.itemId);
      this.#port.finished(message.itemId);
    }
  }

  #send(message: Message, frame: Uint8Array, last: boolean): void {
    const name = `m${this.#nextMark++}`;
    this.#port.sendMedia(frame);
    this.#port.sendMark(name);
    this.#pending.set(name, { itemId: message.itemId, ms: message.sentBytes / BYTES_PER_MS, last });
    message.unechoed += 1;
    if (this.#pending.size > PENDING_MARKS_LIMIT) {
      const oldest = this.#pending.keys().next().value as string;
      const mark = this.#pending.get(oldest);
      this.#pending.delete(oldest);
      const owner = mark && this.#messages.get(mark.itemId);
      if (owner) owner.unechoed -= 1;
    }
  }
}
