import { AudioConverter, type RealtimeAudioFormat } from '@parley/core';
import { streamFormatOf } from '@parley/core/internal';
import type { LivePlayback } from './browser-playback-tracker.js';

/** Where the speaker reports what came out: the session's `playback`. */
export interface PlaybackReports {
  played(itemId: string, ms: number): void;
  finished(itemId: string): void;
}

/** What the speaker had played when a barge-in stopped it. */
export interface PlaybackStop {
  /** The response the session stopped (from `audio_interrupted`). */
  readonly responseId: string;
  /** The message the session cut, and the heard position it cut it at (what the speaker had reported by then). */
  readonly itemId: string | undefined;
  readonly heardMs: number | undefined;
  /** Milliseconds of each message queued at the stop that came out of the speaker worklet, to the last frame. */
  readonly playedMs: ReadonlyMap<string, number>;
}

type PlayerMessage =
  | { type: 'played'; itemId: string; frames: number; at: number; queued: number }
  | { type: 'finished'; itemId: string; frames: number }
  | { type: 'cleared'; played: [string, number][] };

/** How many messages' played positions {@link SpeakerPlayback.playedMs} remembers. */
const REMEMBERED_MESSAGES = 64;

/**
 * The speaker's path: the session's audio, converted to float at the context's rate, queued in the
 * `parley-player` worklet; the worklet's frame counts go back to the session as heard positions (after every
 * render quantum that played something), and a stop empties the queue so the next quantum is silent.
 */
export class SpeakerPlayback implements LivePlayback {
  readonly #context: AudioContext;
  readonly #node: AudioWorkletNode;
  readonly #reports: PlaybackReports;
  readonly #from: ReturnType<typeof streamFormatOf>;
  readonly #converters = new Map<string, AudioConverter>();
  readonly #played = new Map<string, number>();
  readonly #stops: ((played: ReadonlyMap<string, number>) => void)[] = [];
  /** The last report of each message playing: frames played, the frame count then, frames still queued. */
  readonly #playing = new Map<string, { frames: number; at: number; queued: number }>();

  constructor(
    context: AudioContext,
    reports: PlaybackReports,
    format: RealtimeAudioFormat,
    destination: AudioNode,
  ) {
    this.#context = context;
    this.#reports = reports;
    this.#from = streamFormatOf(format);
    this.#node = new AudioWorkletNode(context, 'parley-player', {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [1],
    });
    this.#node.port.onmessage = (event: MessageEvent<PlayerMessage>) => this.#message(event.data);
    this.#node.connect(destination);
  }

  /** Queues the next chunk of message `itemId` (in the session's output format). */
  push(itemId: string, data: Uint8Array): void {
    let converter = this.#converters.get(itemId);
    if (converter === undefined) {
      converter = new AudioConverter(this.#from, { encoding: 'pcm16', sampleRate: this.#context.sampleRate });
      this.#converters.set(itemId, converter);
    }
    const pcm = converter.convert(data);
    const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    const samples = new Float32Array(pcm.byteLength >> 1);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true) / 32768;
    if (samples.length > 0) this.#node.port.postMessage({ type: 'push', itemId, samples }, [samples.buffer]);
  }

  /** Message `itemId` has no more audio: once it has played out, the session hears `finished`. */
  end(itemId: string): void {
    this.#converters.delete(itemId);
    this.#node.port.postMessage({ type: 'end', itemId });
  }

  /** Stops at once (the next render quantum is silent); resolves with what each queued message had played. */
  stop(): Promise<ReadonlyMap<string, number>> {
    this.#converters.clear();
    this.#playing.clear();
    return new Promise((resolve) => {
      this.#stops.push(resolve);
      this.#node.port.postMessage({ type: 'clear' });
    });
  }

  /**
   * Milliseconds of `itemId` out of the worklet now: its last report, plus the frames the audio clock has rendered
   * since (at most the frames it still had queued). `undefined` when it is not playing.
   */
  livePlayedMs(itemId: string): number | undefined {
    const last = this.#playing.get(itemId);
    if (last === undefined) return undefined;
    const rate = this.#context.sampleRate;
    const since = Math.round(this.#context.currentTime * rate) - last.at;
    return ((last.frames + Math.min(Math.max(0, since), last.queued)) * 1000) / rate;
  }

  /** Milliseconds of message `itemId` that came out of the worklet (0 for a message it never played). */
  playedMs(itemId: string): number {
    return this.#played.get(itemId) ?? 0;
  }

  #message(message: PlayerMessage): void {
    if (message.type === 'cleared') {
      const played = new Map<string, number>();
      for (const [itemId, frames] of message.played) {
        const ms = this.#remember(itemId, frames);
        played.set(itemId, ms);
        // The session froze its positions at the barge-in; this says what actually came out up to the stop.
        this.#reports.played(itemId, ms);
      }
      this.#playing.clear();
      this.#stops.shift()?.(played);
      return;
    }
    const ms = this.#remember(message.itemId, message.frames);
    if (message.type === 'played') {
      this.#playing.set(message.itemId, message);
      this.#reports.played(message.itemId, ms);
    } else {
      this.#playing.delete(message.itemId);
      this.#reports.finished(message.itemId);
    }
  }

  #remember(itemId: string, frames: number): number {
    const ms = (frames * 1000) / this.#context.sampleRate;
    if (!this.#played.has(itemId) && this.#played.size >= REMEMBERED_MESSAGES) {
      this.#played.delete(this.#played.keys().next().value as string);
    }
    this.#played.set(itemId, ms);
    return ms;
  }

  /** Stops the worklet and disconnects it; pending stops resolve with nothing played. */
  release(): void {
    this.#node.port.onmessage = null;
    this.#node.port.postMessage({ type: 'stop' });
    this.#node.port.close();
    this.#node.disconnect();
    for (const resolve of this.#stops.splice(0)) resolve(new Map());
  }
}
