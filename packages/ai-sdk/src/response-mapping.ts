import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import type { ConversationItem, Usage } from '@parley/core';

/** The content parts of a generate result (or gathered from a stream) that become conversation items. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string; providerExecuted?: boolean }
  | { type: string };

/**
 * The conversation items of a model's content: each run of text parts one assistant message, each function call
 * (`tool-call` the model asks the app to run) a `function_call` item, in order. Reasoning, files, sources and the
 * calls and results of tools the provider ran itself are not conversation items: they stay in the response's `raw`
 * (and in a stream they arrive as `raw` events). With `structuredOutputText` (the text a provider marks as the
 * structured answer), that text is the one assistant message.
 */
export function toOutput(content: readonly ContentPart[], structuredOutputText?: string): ConversationItem[] {
  const output: ConversationItem[] = [];
  let text: string | undefined;
  const flush = () => {
    if (text !== undefined) output.push({ type: 'message', role: 'assistant', content: text });
    text = undefined;
  };
  for (const part of content) {
    if (part.type === 'text' && 'text' in part) {
      if (structuredOutputText === undefined) text = (text ?? '') + part.text;
    } else if (part.type === 'tool-call' && 'toolCallId' in part && !part.providerExecuted) {
      flush();
      output.push({
        type: 'function_call',
        callId: part.toolCallId,
        name: part.toolName,
        arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
      });
    }
  }
  flush();
  if (structuredOutputText !== undefined) {
    output.push({ type: 'message', role: 'assistant', content: structuredOutputText });
  }
  return output;
}

/** Parley's usage of one call: totals, cached input tokens and text output tokens where the provider reports them. */
export function toUsage(usage: LanguageModelV3Usage | undefined): Usage {
  const inputTokens = usage?.inputTokens.total ?? 0;
  const outputTokens = usage?.outputTokens.total ?? 0;
  const result: Usage = { requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  const cached = usage?.inputTokens.cacheRead;
  if (cached !== undefined) result.inputTokenDetails = { cachedTokens: cached };
  const text = usage?.outputTokens.text;
  if (text !== undefined) result.outputTokenDetails = { textTokens: text };
  return result;
}
