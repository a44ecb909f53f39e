import { concatAudio, rms, toSamples } from '../shared/audio-codec.js';
import { decodeSpeechTexts } from '../shared/sim-audio.js';
import type { LiveUtterance } from './live-brain.js';

const PCM24 = { type: 'audio/pcm', rate: 24000 } as const;

/** Transcribes one utterance's PCM16 24 kHz audio; `heard` is the text embedded by `speechAudio`, if any. */
export type LiveTranscriber = (pcm24: Uint8Array, info: { heard: string }) => string;

/** What one span of heard input did. */
export interface HeardSpan {
  /** The user started speaking at this timeline position. */
  speechStartMs?: number;
  /** The user finished an utterance (the model's own end-pointing). */
  utterance?: LiveUtterance;
  /** The user is still speaking, and the model already knows what they say (interim transcription). */
  interim?: LiveUtterance;
}

/**
 * The simulated model's ear: an energy gate over what it hears, with end-pointing after a stretch of silence. No
 * event goes to the client for either edge — the model just knows.
 */
export class InputListener {
  readonly #threshold: number;
  readonly #endSilenceMs: number;
  readonly #transcribe: LiveTranscriber;
  readonly #interimMs: number | undefined;
  #chunks: Uint8Array[] = [];
  /** The utterance's text, once transcribed (while it goes on, with interim transcription). */
  #text: string | undefined;
  #speechStartMs: number | undefined;
  #lastSpeechEndMs = 0;

  constructor(options: {
    threshold: number;
    endSilenceMs: number;
    transcribe: LiveTranscriber;
    /** Speech after which the utterance is transcribed while it goes on; `undefined`: only once it ended. */
    interimMs: number | undefined;
  }) {
    this.#threshold = options.threshold;
    this.#endSilenceMs = options.endSilenceMs;
    this.#transcribe = options.transcribe;
    this.#interimMs = options.interimMs;
  }

  /** Forgets a half-heard utterance (input dropped, e.g. during a fixture). */
  reset(): void {
    this.#chunks = [];
    this.#speechStartMs = undefined;
    this.#text = undefined;
  }

  hear(pcm24: Uint8Array, startMs: number, endMs: number): HeardSpan {
    const loud = rms(toSamples(PCM24, pcm24)) >= this.#threshold;
    const span: HeardSpan = {};
    if (loud) {
      if (this.#speechStartMs === undefined) {
        this.#speechStartMs = startMs;
        span.speechStartMs = startMs;
      }
      this.#chunks.push(pcm24);
      this.#lastSpeechEndMs = endMs;
      const start = this.#speechStartMs;
      if (this.#text === undefined && this.#interimMs !== undefined && endMs - start >= this.#interimMs) {
        this.#text = this.#transcription();
        span.interim = { text: this.#text, startMs: start, endMs };
      }
      return span;
    }
    if (this.#speechStartMs === undefined) return span;
    this.#chunks.push(pcm24);
    if (endMs - this.#lastSpeechEndMs < this.#endSilenceMs) return span;
    span.utterance = {
      text: this.#text ?? this.#transcription(),
      startMs: this.#speechStartMs,
      endMs: this.#lastSpeechEndMs,
    };
    this.reset();
    return span;
  }

  /** What was said so far, by the transcriber. */
  #transcription(): string {
    const audio = concatAudio(this.#chunks);
    return this.#transcribe(audio, { heard: decodeSpeechTexts(audio).join(' ') });
  }
}
