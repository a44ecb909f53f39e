import type { RunItem } from '@parley/core';
import type { Output } from '../output.js';

const MAX_RESULT = 100;

/** Prints a run as a readable transcript: who said what, which tools ran, what they returned. */
export class TranscriptPrinter {
  readonly #output: Output;

  constructor(output: Output) {
    this.#output = output;
  }

  title(text: string): void {
    this.#output.line(text);
    this.#output.line();
  }

  user(text: string): void {
    this.#output.line(`  customer   ${text}`);
  }

  handoff(from: string, to: string): void {
    this.#output.line(`  ${pad(from)} ⇢ hands the conversation to ${to}`);
  }

  toolCall(agent: string, name: string, args: string): void {
    this.#output.line(`  ${pad(agent)} ⚙ ${name}(${args})`);
  }

  toolResult(name: string, output: string): void {
    const shown = output.length > MAX_RESULT ? `${output.slice(0, MAX_RESULT)}…` : output;
    this.#output.line(`  ${pad('')} ↳ ${name} returned ${shown}`);
  }

  approvalRequested(agent: string, name: string, args: string): void {
    this.#output.line(`  ${pad(agent)} ⏸ ${name}(${args}) needs approval; run state saved`);
  }

  approved(by: string, name: string): void {
    this.#output.line(`  ${pad(by)} ✔ approves ${name}; run resumed from the saved state`);
  }

  /** Prints the assistant messages among `items`. */
  messages(items: readonly RunItem[]): void {
    for (const item of items) {
      if (item.type === 'message_output_item')
        this.#output.line(`  ${pad(item.agent.name)} ${item.rawItem.content}`);
    }
  }

  summary(text: string): void {
    this.#output.line();
    this.#output.line(text);
  }
}

function pad(name: string): string {
  return name.padEnd(10);
}
