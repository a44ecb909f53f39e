/**
 * What the simulated Gemini model does, scripted at the level a test speaks: each model turn is a list of outputs
 * (speech, then maybe function calls); a turn whose calls were answered continues with the next scripted turn, as
 * the service continues the same turn after a tool response.
 */

/** One output of a scripted model turn. */
export type GeminiScriptedOutput =
  /**
   * The model says `text`: `audioMs` of audio (default 50 ms per character, at least 200 ms) with `text` as its
   * output transcription (or as text parts in a TEXT session). `holdAfterMs`: pause the turn once that much of its
   * audio was sent, until `release()`. `transcript: false`: no output transcription for it.
   */
  | { type: 'speech'; text: string; audioMs?: number; holdAfterMs?: number; transcript?: boolean }
  /** A function call (consecutive calls go out in one `toolCall` message). `id` defaults to a generated one. */
  | { type: 'call'; name: string; args?: Record<string, unknown>; id?: string };

export interface GeminiScriptedTurn {
  outputs: GeminiScriptedOutput[];
  /** Keep the turn open after `generationComplete` (before `turnComplete`) until `release()`. */
  hold?: boolean;
}

/** The model's default answer when nothing is scripted: it repeats what it heard. */
export function echoTurn(heard: string): GeminiScriptedTurn {
  return { outputs: [{ type: 'speech', text: heard ? `You said: ${heard}` : 'I am listening.' }] };
}

/** A FIFO of scripted turns shared by every connection of one simulator. */
export class GeminiScript {
  #turns: GeminiScriptedTurn[] = [];
  #heard: string[] = [];

  push(...turns: GeminiScriptedTurn[]): void {
    this.#turns.push(...turns);
  }

  next(): GeminiScriptedTurn | undefined {
    return this.#turns.shift();
  }

  /** The simulator hears `text` in the next user audio that carries no text of its own. */
  hear(text: string): void {
    this.#heard.push(text);
  }

  nextHeard(): string | undefined {
    return this.#heard.shift();
  }

  get pending(): number {
    return this.#turns.length;
  }
}

/** Audio length of a spoken output. */
export function speechMs(output: { text: string; audioMs?: number }): number {
  return output.audioMs ?? Math.max(200, output.text.length * 50);
}
