import type { RealtimeEvent } from '@parley/core';
import { endAssistantMessage } from '@parley/core/internal';
import type { WireAudio } from './wire-audio.js';

interface Speech {
  responseId: string;
  itemId: string;
  transcript: string;
  trailingSilenceMs: number;
  /** Where its first transcript fragment starts on the session timeline, once one arrived. */
  startMs: number | undefined;
  /** Milliseconds of its audio so far. */
  audioMs: number;
}

/**
 * Turns GPT-Live's continuous output track into the seam's responses: a response starts with the first non-silent
 * audio (or output transcript) and ends after `gapMs` of digital silence; the silence between responses is reported
 * as `output_silence`. GPT-Live itself has no response or turn events on the voice side.
 */
export class OutputSegmenter {
  readonly #emit: (event: RealtimeEvent) => void;
  readonly #nextId: (prefix: 'resp' | 'item') => string;
  readonly #gapMs: number;
  readonly #onSpeechStart: () => void;
  readonly #servicePlayback: boolean;
  readonly #audio: WireAudio;
  #speech: Speech | undefined;

  constructor(deps: {
    emit: (event: RealtimeEvent) => void;
    nextId: (prefix: 'resp' | 'item') => string;
    gapMs: number;
    onSpeechStart: () => void;
    /**
     * The service plays the audio (a SIP call's sideband, whose output deltas are what the line played): each
     * response reports its playback starting and stopping, and where a cut left the listener.
     */
    servicePlayback?: boolean;
    /** The output track's format. */
    audio: WireAudio;
  }) {
    this.#emit = deps.emit;
    this.#nextId = deps.nextId;
    this.#gapMs = deps.gapMs;
    this.#onSpeechStart = deps.onSpeechStart;
    this.#servicePlayback = deps.servicePlayback === true;
    this.#audio = deps.audio;
  }

  /** One output delta, in the wire format. */
  audio(pcm: Uint8Array): void {
    const silent = this.#audio.isSilent(pcm);
    const ms = pcm.length / this.#audio.bytesPerMs;
    let speech = this.#speech;
    if (!speech) {
      if (silent) {
        this.#emit({ type: 'output_silence', durationMs: ms });
        return;
      }
      speech = this.#start();
    }
    speech.audioMs += ms;
    this.#emit({ type: 'audio_delta', responseId: speech.responseId, itemId: speech.itemId, audio: pcm });
    if (!silent) {
      speech.trailingSilenceMs = 0;
      return;
    }
    speech.trailingSilenceMs += ms;
    if (speech.trailingSilenceMs >= this.#gapMs) this.end();
  }

  /** Whether the model is speaking a response now. */
  get speaking(): boolean {
    return this.#speech !== undefined;
  }

  /**
   * Whether the user's words at `startMs` (timeline ms) were said over the response being spoken: `false` before its
   * first transcript fragment's position (words said before it began, transcribed late), `true` when unknown.
   */
  spokenOver(startMs: number): boolean {
    const speech = this.#speech;
    return speech !== undefined && (speech.startMs === undefined || startMs >= speech.startMs);
  }

  /** One output transcript fragment, starting at `startMs` of the session timeline. */
  transcript(delta: string, startMs?: number): void {
    const speech = this.#speech ?? this.#start();
    if (speech.startMs === undefined && startMs !== undefined) speech.startMs = startMs;
    speech.transcript += delta;
    speech.trailingSilenceMs = 0;
    this.#emit({ type: 'transcript_delta', responseId: speech.responseId, itemId: speech.itemId, delta });
  }

  /**
   * Ends the response being spoken, if any: `completed` when the voice went silent; `cancelled` when the session cut
   * it (the user spoke over it, or the app stopped it). GPT-Live cannot be told to stop its voice: whatever it says
   * after a cut is a new response.
   */
  end(cut?: 'user_turn' | 'client_cancelled' | 'connection_lost', only?: string): void {
    const speech = this.#speech;
    if (!speech || (only !== undefined && only !== speech.responseId)) return;
    this.#speech = undefined;
    const { responseId, itemId, transcript } = speech;
    // The line played what came so far; a cut leaves the listener there.
    if (this.#servicePlayback && cut)
      this.#emit({ type: 'item_truncated', itemId, heardMs: Math.floor(speech.audioMs) });
    endAssistantMessage(this.#emit, {
      responseId,
      itemId,
      audio: true,
      transcript,
      text: '',
      incomplete: cut !== undefined,
    });
    if (this.#servicePlayback && !cut) this.#emit({ type: 'output_audio_stopped', responseId });
    this.#emit({
      type: 'response_done',
      responseId,
      ephemeral: false,
      ...(cut ? { status: 'cancelled', reason: cut } : { status: 'completed' }),
    });
  }

  #start(): Speech {
    this.#onSpeechStart();
    const speech = {
      responseId: this.#nextId('resp'),
      itemId: this.#nextId('item'),
      transcript: '',
      trailingSilenceMs: 0,
      startMs: undefined,
      audioMs: 0,
    };
    this.#speech = speech;
    this.#emit({ type: 'response_started', responseId: speech.responseId, ephemeral: false });
    this.#emit({ type: 'message_started', responseId: speech.responseId, itemId: speech.itemId });
    if (this.#servicePlayback) this.#emit({ type: 'output_audio_started', responseId: speech.responseId });
    return speech;
  }
}
