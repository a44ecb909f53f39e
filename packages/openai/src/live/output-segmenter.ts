import type { RealtimeEvent } from '@parley/core';

const BYTES_PER_MS = 48; // PCM16 24 kHz mono

function isSilent(pcm: Uint8Array): boolean {
  for (let i = 0; i < pcm.length; i++) if (pcm[i] !== 0) return false;
  return true;
}

interface Speech {
  responseId: string;
  itemId: string;
  transcript: string;
  trailingSilenceMs: number;
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
  #speech: Speech | undefined;

  constructor(deps: {
    emit: (event: RealtimeEvent) => void;
    nextId: (prefix: 'resp' | 'item') => string;
    gapMs: number;
    onSpeechStart: () => void;
  }) {
    this.#emit = deps.emit;
    this.#nextId = deps.nextId;
    this.#gapMs = deps.gapMs;
    this.#onSpeechStart = deps.onSpeechStart;
  }

  /** One output delta (PCM16 24 kHz). */
  audio(pcm: Uint8Array): void {
    const silent = isSilent(pcm);
    let speech = this.#speech;
    if (!speech) {
      if (silent) {
        this.#emit({ type: 'output_silence', durationMs: pcm.length / BYTES_PER_MS });
        return;
      }
      speech = this.#start();
    }
    this.#emit({ type: 'audio_delta', responseId: speech.responseId, itemId: speech.itemId, audio: pcm });
    if (!silent) {
      speech.trailingSilenceMs = 0;
      return;
    }
    speech.trailingSilenceMs += pcm.length / BYTES_PER_MS;
    if (speech.trailingSilenceMs >= this.#gapMs) this.end();
  }

  /** One output transcript fragment. */
  transcript(delta: string): void {
    const speech = this.#speech ?? this.#start();
    speech.transcript += delta;
    speech.trailingSilenceMs = 0;
    this.#emit({ type: 'transcript_delta', responseId: speech.responseId, itemId: speech.itemId, delta });
  }

  /** Ends the response being spoken, if any. */
  end(): void {
    const speech = this.#speech;
    if (!speech) return;
    this.#speech = undefined;
    const { responseId, itemId, transcript } = speech;
    this.#emit({ type: 'audio_done', responseId, itemId });
    this.#emit({ type: 'transcript_done', responseId, itemId, transcript });
    this.#emit({
      type: 'message_done',
      responseId,
      itemId,
      item: {
        type: 'message',
        itemId,
        role: 'assistant',
        content: [{ type: 'audio', transcript }],
        status: 'completed',
      },
    });
    this.#emit({ type: 'response_done', responseId, status: 'completed', ephemeral: false });
  }

  #start(): Speech {
    this.#onSpeechStart();
    const speech = {
      responseId: this.#nextId('resp'),
      itemId: this.#nextId('item'),
      transcript: '',
      trailingSilenceMs: 0,
    };
    this.#speech = speech;
    this.#emit({ type: 'response_started', responseId: speech.responseId, ephemeral: false });
    this.#emit({ type: 'message_started', responseId: speech.responseId, itemId: speech.itemId });
    return speech;
  }
}
