import type { RunItem } from '@parley/core';
import { TranscriptPrinter } from '../transcript-printer.js';

/** The support demo's transcript: handoffs, tool calls, approvals and the agents' messages. */
export class SupportTranscriptPrinter extends TranscriptPrinter {
  user(text: string): void {
    this.say('customer', text);
  }

  handoff(from: string, to: string): void {
    this.say(from, `⇢ hands the conversation to ${to}`);
  }

  toolCall(agent: string, name: string, args: string): void {
    this.say(agent, `⚙ ${name}(${args})`);
  }

  approvalRequested(agent: string, name: string, args: string): void {
    this.say(agent, `⏸ ${name}(${args}) needs approval; run state saved`);
  }

  approved(by: string, name: string): void {
    this.say(by, `✔ approves ${name}; run resumed from the saved state`);
  }

  /** Prints the assistant messages among `items`. */
  messages(items: readonly RunItem[]): void {
    for (const item of items) {
      if (item.type === 'message_output_item') this.say(item.agent.name, item.rawItem.content);
    }
  }
}
