import type { AnyAgent } from '../agent.js';
import type {
  ConversationItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  HostedToolApprovalRequestItem,
  HostedToolItem,
  MessageItem,
} from '../items.js';

/** An assistant message the model produced. */
export interface MessageOutputItem<TContext = unknown> {
  readonly type: 'message_output_item';
  /** The agent whose model produced it. */
  readonly agent: AnyAgent<TContext>;
  /** The message as the model returned it. */
  readonly rawItem: MessageItem;
}

/** A call of a function tool (or of a tool the agent does not have). */
export interface ToolCallItem<TContext = unknown> {
  readonly type: 'tool_call_item';
  /** The agent whose model made the call. */
  readonly agent: AnyAgent<TContext>;
  /** The call: `callId`, tool `name` and raw JSON `arguments`. */
  readonly rawItem: FunctionCallItem;
}

/** What the model sees as the result of a function call: a tool's output or an error text. */
export interface ToolCallOutputItem<TContext = unknown> {
  readonly type: 'tool_call_output_item';
  /** The agent whose call it answers. */
  readonly agent: AnyAgent<TContext>;
  /** The output text the model sees, with the `callId` it answers. */
  readonly rawItem: FunctionCallOutputItem;
}

/** The model asked to hand off (`transfer_to_<name>`). */
export interface HandoffCallItem<TContext = unknown> {
  readonly type: 'handoff_call_item';
  /** The agent whose model asked to hand off. */
  readonly agent: AnyAgent<TContext>;
  /** The call of the handoff tool (`transfer_to_<name>`). */
  readonly rawItem: FunctionCallItem;
}

/** A handoff took place: control passed from `sourceAgent` to `targetAgent`. */
export interface HandoffOutputItem<TContext = unknown> {
  readonly type: 'handoff_output_item';
  /** The agent that handed off (same as `sourceAgent`). */
  readonly agent: AnyAgent<TContext>;
  /** The handoff call's output, `{"assistant":"<target name>"}`. */
  readonly rawItem: FunctionCallOutputItem;
  /** The agent that gave up control. */
  readonly sourceAgent: AnyAgent<TContext>;
  /** The agent that took over. */
  readonly targetAgent: AnyAgent<TContext>;
}

/**
 * A tool call that waits for a decision: pass it to `state.approve(item)` or `state.reject(item)`.
 * The call's name and arguments are in `rawItem`.
 */
export interface ToolApprovalItem<TContext = unknown> {
  readonly type: 'tool_approval_item';
  /** The agent whose model made the call. */
  readonly agent: AnyAgent<TContext>;
  /**
   * The call waiting for a decision: `callId`, tool `name` and raw JSON `arguments`; a call of a hosted MCP
   * server's tool (`type: 'hosted_tool_approval_request'`) names its `server` too.
   */
  readonly rawItem: FunctionCallItem | HostedToolApprovalRequestItem;
}

/**
 * Activity of a tool the provider runs itself: a call with its results (web search, file search, code
 * interpreter, image generation, MCP), a hosted MCP approval request, or the app's decision on one.
 */
export interface HostedToolRunItem<TContext = unknown> {
  readonly type: 'hosted_tool_item';
  /** The agent whose model made the call. */
  readonly agent: AnyAgent<TContext>;
  /** The item, as the conversation carries it. */
  readonly rawItem: HostedToolItem;
}

/** Everything a run generates, each carrying the agent it belongs to. */
export type RunItem<TContext = unknown> =
  | MessageOutputItem<TContext>
  | ToolCallItem<TContext>
  | ToolCallOutputItem<TContext>
  | HandoffCallItem<TContext>
  | HandoffOutputItem<TContext>
  | ToolApprovalItem<TContext>
  | HostedToolRunItem<TContext>;

/** The conversation items of a list of run items, in order (approval items stand for none). */
export function runItemsToConversation<TContext>(items: readonly RunItem<TContext>[]): ConversationItem[] {
  return items.flatMap((item) => (item.type === 'tool_approval_item' ? [] : [item.rawItem]));
}
