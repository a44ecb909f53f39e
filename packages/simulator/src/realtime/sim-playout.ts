import type { Clock, TimerHandle } from '@parley/core';
import type { WireServerEvent } from '@parley/openai/wire';

/** One frame of played audio, PCM16 24 kHz, as the playout hands it to the line (RTP, or nowhere for SIP). */
export type PlayoutSink = (pcm24: Uint8Array) => void;

/** Where a clear stopped playback: the message being heard and how much of it was heard. */
export interface PlayoutCut {
  responseId: string;
  itemId: string;
  playedMs: number;
}

interface Chunk {
  responseId: string;
  itemId: string;
  pcm24: Uint8Array;
  offset: number;
}

/** PCM16 24 kHz: 48 bytes per millisecond. */
const BYTES_PER_MS = 48;

/**
 * The simulated service playing a call's audio to the listener (a WebRTC peer or a phone line): the responses' audio
 * is queued and played in real time on the clock, one frame at a time, to the sink. It reports what a WebRTC or SIP
 * call reports: `output_audio_buffer.started` when a response's audio starts playing, `output_audio_buffer.stopped`
 * when all of it played (the response done and the queue drained), and on a clear (the client's
 * `output_audio_buffer.clear`, or a barge-in) it drops what was not played and says where it stopped.
 */
export class ServicePlayout {
  readonly #clock: Clock;
  readonly #frameMs: number;
  readonly #sink: PlayoutSink | undefined;
  readonly #emit: (event: WireServerEvent) => void;
  readonly #queue: Chunk[] = [];
  /** Milliseconds played of each message. */
  readonly #played = new Map<string, number>();
  /** Responses whose generation ended: once drained, their playback stopped. */
  readonly #done = new Set<string>();
  /** Responses cleared: their late audio is dropped. */
  readonly #cleared = new Set<string>();
  /** The message of each response whose audio played last. */
  readonly #lastItems = new Map<string, string>();
  /** What the frame being played holds, credited once it has played. */
  readonly #pending: { itemId: string; ms: number }[] = [];
  #playing: string | undefined;
  #timer: TimerHandle | undefined;
  #closed = false;

  constructor(options: {
    clock: Clock;
    frameMs?: number;
    sink?: PlayoutSink;
    emit: (event: WireServerEvent) => void;
  }) {
    this.#clock = options.clock;
    this.#frameMs = options.frameMs ?? 20;
    this.#sink = options.sink;
    this.#emit = options.emit;
  }

  /** Milliseconds of message `itemId` played so far. */
  playedMs(itemId: string): number {
    return this.#played.get(itemId) ?? 0;
  }

  /** The response being played, if any. */
  get playing(): string | undefined {
    return this.#playing;
  }

  /** Queues a response's audio (PCM16 24 kHz) behind what is already queued. */
  enqueue(responseId: string, itemId: string, pcm24: Uint8Array): void {
    if (this.#closed || this.#cleared.has(responseId) || pcm24.length === 0) return;
    this.#queue.push({ responseId, itemId, pcm24, offset: 0 });
    this.#schedule();
  }

  /** The response generated all its audio: once it has played, playback stops. */
  responseDone(responseId: string): void {
    this.#done.add(responseId);
    this.#schedule();
  }

  /**
   * Stops playback now and drops everything not played: returns where the message being heard stopped (`undefined`
   * when nothing was playing). Emits `output_audio_buffer.cleared` for the response that was playing.
   */
  clear(): PlayoutCut | undefined {
    const playing = this.#playing;
    for (const chunk of this.#queue) this.#cleared.add(chunk.responseId);
    if (playing !== undefined) this.#cleared.add(playing);
    this.#queue.length = 0;
    this.#pending.length = 0;
    this.#stopTimer();
    this.#playing = undefined;
    if (playing === undefined) return undefined;
    this.#emit({ type: 'output_audio_buffer.cleared', response_id: playing });
    const itemId = this.#lastItems.get(playing);
    return itemId === undefined
      ? undefined
      : { responseId: playing, itemId, playedMs: this.playedMs(itemId) };
  }

  /** Stops for good (the call ended). */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#stopTimer();
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== undefined) return;
    if (this.#queue.length === 0) {
      this.#maybeStopped();
      return;
    }
    this.#tick();
  }

  /**
   * The frame played last has now been heard (it is credited to its message), and the next one is played; a frame
   * cut short by a clear is not credited.
   */
  #tick(): void {
    this.#timer = undefined;
    this.#credit();
    const head = this.#queue[0];
    if (head === undefined) {
      this.#maybeStopped();
      return;
    }
    if (this.#playing !== head.responseId) {
      if (this.#playing !== undefined)
        this.#emit({ type: 'output_audio_buffer.stopped', response_id: this.#playing });
      this.#playing = head.responseId;
      this.#emit({ type: 'output_audio_buffer.started', response_id: head.responseId });
    }
    const frameBytes = this.#frameMs * BYTES_PER_MS;
    const frame = new Uint8Array(frameBytes);
    let filled = 0;
    while (filled < frameBytes && this.#queue[0]?.responseId === head.responseId) {
      const chunk = this.#queue[0] as Chunk;
      const take = Math.min(frameBytes - filled, chunk.pcm24.length - chunk.offset);
      frame.set(chunk.pcm24.subarray(chunk.offset, chunk.offset + take), filled);
      chunk.offset += take;
      filled += take;
      this.#pending.push({ itemId: chunk.itemId, ms: take / BYTES_PER_MS });
      this.#lastItems.set(chunk.responseId, chunk.itemId);
      if (chunk.offset >= chunk.pcm24.length) this.#queue.shift();
    }
    this.#sink?.(frame);
    this.#timer = this.#clock.setTimeout(() => this.#tick(), this.#frameMs);
  }

  #credit(): void {
    for (const { itemId, ms } of this.#pending) this.#played.set(itemId, this.playedMs(itemId) + ms);
    this.#pending.length = 0;
  }

  /** The queue drained: the response playing stopped if it is done (else more of it is still coming). */
  #maybeStopped(): void {
    const playing = this.#playing;
    if (playing === undefined || !this.#done.has(playing)) return;
    this.#playing = undefined;
    this.#emit({ type: 'output_audio_buffer.stopped', response_id: playing });
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
