import type { ConversationItem, Usage } from '@parley/core';

function itemChars(item: ConversationItem): number {
  switch (item.type) {
    case 'message':
      return item.content.length;
    case 'function_call':
      return item.name.length + item.arguments.length;
    case 'function_call_output':
      return item.output.length;
    default:
      return JSON.stringify(item).length;
  }
}

/** A deterministic usage estimate (about four characters per token) so runs have usage to compare. */
export function estimateUsage(
  input: readonly ConversationItem[],
  output: readonly ConversationItem[],
): Usage {
  const tokens = (items: readonly ConversationItem[]) =>
    items.reduce((sum, item) => sum + Math.ceil(itemChars(item) / 4), 0);
  const inputTokens = tokens(input);
  const outputTokens = tokens(output);
  return { requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}
