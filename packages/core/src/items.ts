/**
 * The provider-neutral items of a text conversation: what the Runner sends to a {@link Model}
 * and what a model returns. They are plain JSON so a `RunState` can serialize them.
 */
export type ConversationItem = MessageItem | FunctionCallItem | FunctionCallOutputItem;

/** A message from the user, the assistant or the system. */
export interface MessageItem {
  type: 'message';
  role: 'user' | 'assistant' | 'system';
  content: string;
  /** The provider's id for this item, when it has one. */
  id?: string;
}

/** The model asks for a function (a tool or a handoff) to be called. */
export interface FunctionCallItem {
  type: 'function_call';
  /** Correlates the call with its output. */
  callId: string;
  name: string;
  /** The arguments as the model produced them: a JSON string, not yet validated. */
  arguments: string;
  id?: string;
}

/** The result of a function call, as the model will see it. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  callId: string;
  output: string;
}

/** A user message item. */
export function userMessage(content: string): MessageItem {
  return { type: 'message', role: 'user', content };
}

/** An assistant message item. */
export function assistantMessage(content: string): MessageItem {
  return { type: 'message', role: 'assistant', content };
}
