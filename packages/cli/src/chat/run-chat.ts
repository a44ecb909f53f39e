import {
  Agent,
  MemorySession,
  type Model,
  Runner,
  type RunState,
  ServiceUnreachableError,
  type StreamedRunResult,
  type ToolApprovalItem,
} from '@parley/core';
import { issueRefund, lookupOrder } from '../demo/support-agents.js';
import type { Output } from '../output.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import type { LineReader } from './line-reader.js';

/** What {@link runChat} talks to. */
export interface ChatOptions {
  model: Model;
  /** How the title names the model, e.g. `the offline mock model`. */
  modelLabel: string;
  out: Output;
  err: Output;
  input: LineReader;
  /** A person types (stdin and stdout are a terminal): show prompts. Otherwise echo what was read. */
  interactive: boolean;
}

const AGENT = 'Assistant';

/**
 * An interactive text agent on the terminal: each line is a turn of the `Runner` (streamed; the conversation is kept
 * in a `MemorySession`), tokens are printed as they arrive, tool calls and results as they happen, and a tool call
 * that needs approval is asked y/n on the terminal. Ends at the end of the input or on `/exit`, or at once when
 * the model cannot be reached. Resolves with the exit code: 1 when a turn failed, else 0.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const { out, input, interactive } = options;
  const printer = new TranscriptPrinter(out);
  const agent = new Agent({
    name: AGENT,
    instructions: 'You help customers with their orders. Look an order up before refunding it.',
    tools: [lookupOrder, issueRefund],
    model: options.model,
  });
  const runner = new Runner();
  const session = new MemorySession();
  /** Tool names by call id, over the whole chat (a call's output can come in a resumed run). */
  const toolNames = new Map<string, string>();
  printer.title(`Parley chat: a text agent on ${options.modelLabel}. /exit or end of input quits.`);
  let exitCode = 0;

  for (;;) {
    if (interactive) out.write('you> ');
    const line = await input.next();
    if (line === undefined || line.trim() === '/exit') break;
    const text = line.trim();
    if (text === '') continue;
    if (!interactive) printer.say('you', text);
    try {
      let result = await runner.run(agent, text, { stream: true, session });
      await printStream(result, printer, out, toolNames);
      while (result.interruptions.length > 0) {
        const state: RunState<unknown> = result.state;
        for (const item of result.interruptions) {
          if (await approved(item, options)) state.approve(item);
          else state.reject(item);
        }
        result = await runner.run(agent, state, { stream: true, session });
        await printStream(result, printer, out, toolNames);
      }
    } catch (error) {
      options.err.line(`parley chat: ${(error as Error).message}`);
      exitCode = 1;
      // Nothing more can be answered: stop rather than fail every following line the same way.
      if (error instanceof ServiceUnreachableError) return exitCode;
    }
  }
  printer.summary('Bye.');
  return exitCode;
}

/** Prints a streamed run: tokens as they arrive, tool calls and their results. */
async function printStream(
  result: StreamedRunResult,
  printer: TranscriptPrinter,
  out: Output,
  toolNames: Map<string, string>,
): Promise<void> {
  let agent = AGENT;
  let speaking = false;
  const endLine = () => {
    if (speaking) out.line();
    speaking = false;
  };
  for await (const event of result) {
    if (event.type === 'agent_updated') agent = event.agent.name;
    else if (event.type === 'raw_model_event' && event.data.type === 'text_delta') {
      if (!speaking) out.write(`  ${agent.padEnd(10)} `);
      speaking = true;
      out.write(event.data.delta);
    } else if (event.type === 'run_item') {
      const { item } = event;
      endLine();
      if (item.type === 'tool_call_item') {
        toolNames.set(item.rawItem.callId, item.rawItem.name);
        printer.say(item.agent.name, `⚙ ${item.rawItem.name}(${item.rawItem.arguments})`);
      } else if (item.type === 'tool_call_output_item') {
        printer.toolResult(toolNames.get(item.rawItem.callId) ?? 'the tool', item.rawItem.output);
      }
    }
  }
  endLine();
  await result.completed;
}

/** Asks y/n for a call waiting for approval; no answer (end of input) rejects it. */
async function approved(item: ToolApprovalItem, options: ChatOptions): Promise<boolean> {
  const { out, input, interactive } = options;
  out.write(
    `  ${item.agent.name.padEnd(10)} ⏸ ${item.rawItem.name}(${item.rawItem.arguments}) needs your approval. Approve? [y/n] `,
  );
  const answer = await input.next();
  if (!interactive || answer === undefined) out.line(answer ?? '(no answer)');
  const yes = /^y(es)?$/i.test(answer?.trim() ?? '');
  out.line(`  ${'you'.padEnd(10)} ${yes ? '✔ approved' : '✘ rejected'} ${item.rawItem.name}`);
  return yes;
}
