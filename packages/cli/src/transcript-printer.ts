import type { Output } from './output.js';

const MAX_RESULT = 100;

/** Prints a demo as a readable transcript: a column of speakers, then what each said or did. */
export class TranscriptPrinter {
  readonly #output: Output;

  constructor(output: Output) {
    this.#output = output;
  }

  title(text: string): void {
    this.#output.line(text);
    this.#output.line();
  }

  /** A line by `who` (the customer, an agent, the session, …). */
  say(who: string, text: string): void {
    this.#output.line(`  ${who.padEnd(10)} ${text}`);
  }

  /** A line continuing the one before. */
  more(text: string): void {
    this.say('', text);
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
