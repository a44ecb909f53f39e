import type { RealtimeEvent } from '@parley/core';

interface Fragment {
  delta: string;
  startMs: number;
  endMs: number;
}

/**
 * Groups GPT-Live's input transcript fragments (no item ids, no done events) into user turns: a turn ends when the
 * model starts speaking or delegates, or when the next fragment starts more than `gapMs` after the last one ended.
 * A delegation ends the turn at its timeline offset: what the user said after that point starts the next turn.
 * GPT-Live sends no speech events: a turn's first fragment is the only sign that the user started to speak
 * (`started`, with the fragment's timeline position), the turn's end the sign that they stopped (`stopped`).
 */
export class InputTurns {
  readonly #emit: (event: RealtimeEvent) => void;
  readonly #nextId: () => string;
  readonly #gapMs: number;
  readonly #started: (startMs: number) => void;
  readonly #stopped: () => void;
  #turn: { itemId: string; fragments: Fragment[]; endMs: number } | undefined;

  constructor(deps: {
    emit: (event: RealtimeEvent) => void;
    nextId: () => string;
    gapMs: number;
    started: (startMs: number) => void;
    stopped: () => void;
  }) {
    this.#emit = deps.emit;
    this.#nextId = deps.nextId;
    this.#gapMs = deps.gapMs;
    this.#started = deps.started;
    this.#stopped = deps.stopped;
  }

  fragment(delta: string, startMs: number, endMs: number): void {
    if (this.#turn && startMs - this.#turn.endMs > this.#gapMs) this.finish();
    if (!this.#turn) {
      this.#turn = { itemId: this.#nextId(), fragments: [], endMs };
      this.#started(startMs);
    }
    const turn = this.#turn;
    turn.fragments.push({ delta, startMs, endMs });
    turn.endMs = endMs;
    this.#emit({ type: 'input_transcription', itemId: turn.itemId, text: delta, final: false });
  }

  /**
   * The connection ended with a turn still open: nothing says the user had finished, so no final transcript is made
   * up (the session marks the turn partial, cut mid-transcription). The turn is forgotten.
   */
  cut(): void {
    if (!this.#turn) return;
    this.#turn = undefined;
    this.#stopped();
  }

  /** Ends the current turn, if any, with its full text. */
  finish(): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#turn = undefined;
    this.#stopped();
    this.#emit({
      type: 'input_transcription',
      itemId: turn.itemId,
      text: textOf(turn.fragments),
      final: true,
    });
  }

  /**
   * Ends the current turn at `offsetMs` of the timeline: its text is what started before that point. Returns what to
   * call once the delegation is reported: the fragments from that point on start the next turn then.
   */
  finishAt(offsetMs: number): () => void {
    const turn = this.#turn;
    const later = turn?.fragments.filter((f) => f.startMs >= offsetMs) ?? [];
    if (!turn || later.length === 0) {
      this.finish();
      return () => {};
    }
    this.#turn = undefined;
    this.#stopped();
    const before = turn.fragments.filter((f) => f.startMs < offsetMs);
    this.#emit({ type: 'input_transcription', itemId: turn.itemId, text: textOf(before), final: true });
    return () => {
      for (const f of later) this.fragment(f.delta, f.startMs, f.endMs);
    };
  }
}

function textOf(fragments: readonly Fragment[]): string {
  return fragments
    .map((f) => f.delta)
    .join('')
    .trim();
}
