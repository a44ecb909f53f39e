import { RunHooks, Runner, RunState } from '@parley/core';
import type { Output } from '../output.js';
import { triageAgent } from './support-agents.js';
import { CUSTOMER_MESSAGE, supportModel } from './support-script.js';
import { SupportTranscriptPrinter } from './transcript.js';

/** A summary of what the demo did, for callers and tests. */
export interface DemoSummary {
  /** The run's final output, as text. */
  finalOutput: string;
  /** The name of the agent that gave the final output. */
  lastAgent: string;
  /** How many handoffs took place. */
  handoffs: number;
  /** How many tool calls ran (handoffs not counted). */
  toolCalls: number;
  /** How many tool calls were approved. */
  approvals: number;
  /** The run's turns (model calls), over every resume. */
  turns: number;
}

/**
 * Runs the scripted customer-support conversation on the mock model: a handoff from Triage to Billing,
 * a tool call, and a refund that pauses for approval, is saved and restored as a string, approved, and
 * resumed. Prints a readable transcript.
 */
export async function runSupportDemo(output: Output): Promise<DemoSummary> {
  const model = supportModel();
  const printer = new SupportTranscriptPrinter(output);
  const hooks = new RunHooks();
  let handoffs = 0;
  let toolCalls = 0;
  hooks.on('handoff', ({ fromAgent, toAgent }) => {
    handoffs++;
    printer.handoff(fromAgent.name, toAgent.name);
  });
  hooks.on('tool_started', ({ agent, call }) => {
    toolCalls++;
    printer.toolCall(agent.name, call.name, call.arguments);
  });
  hooks.on('tool_done', ({ call, result }) => printer.toolResult(call.name, result.output));
  const runner = new Runner({ model, hooks });

  printer.title('Parley demo: customer support on the mock model (no API key, no network)');
  printer.user(CUSTOMER_MESSAGE);
  let result = await runner.run(triageAgent, CUSTOMER_MESSAGE);
  printer.messages(result.newItems);

  let approvals = 0;
  while (result.interruptions.length > 0) {
    // A real app would store this string and resume later, possibly in another process.
    const saved = result.state.toString();
    const state = RunState.fromString(triageAgent, saved);
    for (const item of state.getInterruptions()) {
      printer.approvalRequested(item.agent.name, item.rawItem.name, item.rawItem.arguments);
      state.approve(item);
      approvals++;
      printer.approved('supervisor', item.rawItem.name);
    }
    const seen = state.generatedItems.length;
    result = await runner.run(triageAgent, state);
    printer.messages(result.newItems.slice(seen));
  }

  model.assertComplete();
  const summary: DemoSummary = {
    finalOutput: String(result.finalOutput),
    lastAgent: result.lastAgent.name,
    handoffs,
    toolCalls,
    approvals,
    turns: result.state.currentTurn,
  };
  printer.summary(
    `${summary.handoffs} handoff, ${summary.toolCalls} tool calls, ${summary.approvals} approval, ` +
      `${summary.turns} turns; the conversation ended with ${summary.lastAgent}.`,
  );
  return summary;
}
