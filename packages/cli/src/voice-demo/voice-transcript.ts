import type { Output } from '../output.js';

const MAX_RESULT = 100;

/** Prints the voice call as a readable transcript: who said what, which tools ran, what the session did. */
export class VoiceTranscriptPrinter {
  readonly #output: Output;

  constructor(output: Output) {
    this.#output = output;
  }

  title(text: string): void {
    this.#output.line(text);
    this.#output.line();
  }

  /** A line by `who` (the caller, the agent, the session, …). */
  say(who: string, text: string): void {
    this.#output.line(`  ${who.padEnd(10)} ${text}`);
  }

  /** A line continuing the one before. */
  more(text: string): void {
    this.#output.line(`  ${''.padEnd(10)} ${text}`);
  }

  toolResult(name: string, output: string): void {
    const shown = output.length > MAX_RESULT ? `${output.slice(0, MAX_RESULT)}…` : output;
    this.more(`↳ ${name} returned ${shown}`);
  }

  summary(text: string): void {
    this.#output.line();
    this.#output.line(text);
  }
}
