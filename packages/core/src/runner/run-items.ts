import type { Agent } from '../agent.js';
import type { ConversationItem, FunctionCallItem, FunctionCallOutputItem, MessageItem } from '../items.js';

/** An agent of any output type, as run items and results hold it. */
// biome-ignore lint/suspicious/noExplicitAny: items and results hold agents of every output type
export type AnyAgent<TContext = unknown> = Agent<TContext, any>;

/** An assistant message the model produced. */
export interface MessageOutputItem<TContext = unknown> {
  readonly type: 'message_output_item';
  /** The agent whose model produced it. */
  readonly agent: AnyAgent<TContext>;
  readonly rawItem: MessageItem;
}

/** A call of a function tool (or of a tool the agent does not have). */
export interface ToolCallItem<TContext = unknown> {
  readonly type: 'tool_call_item';
  readonly agent: AnyAgent<TContext>;
  readonly rawItem: FunctionCallItem;
}

/** What the model sees as the result of a function call: a tool's output or an error text. */
export interface ToolCallOutputItem<TContext = unknown> {
  readonly type: 'tool_call_output_item';
  readonly agent: AnyAgent<TContext>;
  readonly rawItem: FunctionCallOutputItem;
}

/** The model asked to hand off (`transfer_to_<name>`). */
export interface HandoffCallItem<TContext = unknown> {
  readonly type: 'handoff_call_item';
  readonly agent: AnyAgent<TContext>;
  readonly rawItem: FunctionCallItem;
}

/** A handoff took place: control passed from `sourceAgent` to `targetAgent`. */
export interface HandoffOutputItem<TContext = unknown> {
  readonly type: 'handoff_output_item';
  /** The agent that handed off (same as `sourceAgent`). */
  readonly agent: AnyAgent<TContext>;
  readonly rawItem: FunctionCallOutputItem;
  readonly sourceAgent: AnyAgent<TContext>;
  readonly targetAgent: AnyAgent<TContext>;
}

/**
 * A tool call that waits for a decision: pass it to `state.approve(item)` or `state.reject(item)`.
 * The call's name and arguments are in `rawItem`.
 */
export interface ToolApprovalItem<TContext = unknown> {
  readonly type: 'tool_approval_item';
  readonly agent: AnyAgent<TContext>;
  readonly rawItem: FunctionCallItem;
}

/** Everything a run generates, each carrying the agent it belongs to. */
export type RunItem<TContext = unknown> =
  | MessageOutputItem<TContext>
  | ToolCallItem<TContext>
  | ToolCallOutputItem<TContext>
  | HandoffCallItem<TContext>
  | HandoffOutputItem<TContext>
  | ToolApprovalItem<TContext>;

/** The conversation item a run item stands for; approval items have none. */
export function runItemToConversationItem<TContext>(item: RunItem<TContext>): ConversationItem | undefined {
  return item.type === 'tool_approval_item' ? undefined : item.rawItem;
}

/** The conversation items of a list of run items, in order. */
export function runItemsToConversation<TContext>(items: readonly RunItem<TContext>[]): ConversationItem[] {
  const out: ConversationItem[] = [];
  for (const item of items) {
    const conversationItem = runItemToConversationItem(item);
    if (conversationItem) out.push(conversationItem);
  }
  return out;
}
