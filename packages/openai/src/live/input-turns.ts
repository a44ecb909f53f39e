import type { RealtimeEvent } from '@parley/core';

/**
 * Groups GPT-Live's input transcript fragments (no item ids, no done events) into user turns: a turn ends when the
 * model starts speaking or delegates, or when the next fragment starts more than `gapMs` after the last one ended.
 */
export class InputTurns {
  readonly #emit: (event: RealtimeEvent) => void;
  readonly #nextId: () => string;
  readonly #gapMs: number;
  #turn: { itemId: string; text: string; endMs: number } | undefined;

  constructor(deps: { emit: (event: RealtimeEvent) => void; nextId: () => string; gapMs: number }) {
    this.#emit = deps.emit;
    this.#nextId = deps.nextId;
    this.#gapMs = deps.gapMs;
  }

  fragment(delta: string, startMs: number, endMs: number): void {
    if (this.#turn && startMs - this.#turn.endMs > this.#gapMs) this.finish();
    if (!this.#turn) this.#turn = { itemId: this.#nextId(), text: '', endMs };
    const turn = this.#turn;
    turn.text += delta;
    turn.endMs = endMs;
    this.#emit({ type: 'input_transcription', itemId: turn.itemId, text: delta, final: false });
  }

  /** Ends the current turn, if any, with its full text. */
  finish(): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#turn = undefined;
    this.#emit({ type: 'input_transcription', itemId: turn.itemId, text: turn.text.trim(), final: true });
  }
}
