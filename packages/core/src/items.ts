/**
 * The provider-neutral items of a text conversation: what the Runner sends to a {@link Model}
 * and what a model returns. They are plain JSON so a `RunState` can serialize them.
 */
export type ConversationItem =
  | MessageItem
  | FunctionCallItem
  | FunctionCallOutputItem
  | HostedToolCallItem
  | HostedToolApprovalRequestItem
  | HostedToolApprovalResponseItem;

/** The conversation items of tools the provider runs itself; models that run none drop them from their input. */
export type HostedToolItem =
  | HostedToolCallItem
  | HostedToolApprovalRequestItem
  | HostedToolApprovalResponseItem;

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

/** Where a hosted tool call can stand, as providers report it. */
export const HOSTED_TOOL_CALL_STATUSES = [
  'in_progress',
  'searching',
  'interpreting',
  'generating',
  'calling',
  'completed',
  'incomplete',
  'failed',
] as const;

/** Where a hosted tool call stands, as the provider reports it. */
export type HostedToolCallStatus = (typeof HOSTED_TOOL_CALL_STATUSES)[number];

/** What every hosted tool call item has. */
export interface HostedToolCallBase {
  readonly type: 'hosted_tool_call';
  /** The provider's id of the call. */
  readonly id: string;
  readonly status: HostedToolCallStatus;
  /** The provider's own form of the item, sent back as it came when the conversation goes on with that provider. */
  readonly providerData?: Record<string, unknown>;
}

/** What a web search call did. */
export type WebSearchAction =
  | { type: 'search'; queries: string[]; sources: string[] }
  | { type: 'open_page'; url?: string }
  | { type: 'find_in_page'; url: string; pattern: string };

/** One result of a file search. */
export interface FileSearchResult {
  fileId?: string;
  filename?: string;
  score?: number;
  text?: string;
  attributes?: Record<string, string | number | boolean>;
}

/** One output of a code interpreter call: its logs, or an image it made (by URL). */
export type CodeInterpreterOutput = { type: 'logs'; logs: string } | { type: 'image'; url: string };

/** What a hosted MCP item did: call a tool of the server, or list its tools. */
export type McpHostedAction =
  | { type: 'call'; name: string; arguments: string; output?: string; error?: string }
  | {
      type: 'list_tools';
      tools: { name: string; description?: string; inputSchema: unknown }[];
      error?: string;
    };

/** A call of a tool the provider ran itself (see `hostedTool()`), with its results. */
export type HostedToolCallItem =
  | (HostedToolCallBase & { readonly kind: 'web_search'; readonly action: WebSearchAction })
  | (HostedToolCallBase & {
      readonly kind: 'file_search';
      readonly queries: string[];
      readonly results: FileSearchResult[];
    })
  | (HostedToolCallBase & {
      readonly kind: 'code_interpreter';
      readonly code: string;
      readonly containerId?: string;
      readonly outputs: CodeInterpreterOutput[];
    })
  | (HostedToolCallBase & {
      readonly kind: 'image_generation';
      /** The image, base64-encoded, once generated. */
      readonly imageBase64?: string;
    })
  | (HostedToolCallBase & {
      readonly kind: 'mcp';
      /** The server's label (`hostedTool({ kind: 'mcp', server })`). */
      readonly server: string;
      readonly action: McpHostedAction;
    });

/**
 * The provider asks the app to approve a call of a hosted MCP server's tool. It surfaces as a run's
 * interruption (a `tool_approval_item`), decided with `state.approve()` / `state.reject()` like a function call.
 */
export interface HostedToolApprovalRequestItem {
  type: 'hosted_tool_approval_request';
  /** The provider's id of the request; the decision answers it. */
  callId: string;
  /** The server's label. */
  server: string;
  /** The server's tool the model wants to call. */
  name: string;
  /** The call's JSON arguments. */
  arguments: string;
}

/** The app's decision on a {@link HostedToolApprovalRequestItem}, sent to the provider. */
export interface HostedToolApprovalResponseItem {
  type: 'hosted_tool_approval_response';
  /** The `callId` of the request it answers. */
  callId: string;
  approved: boolean;
  /** For a rejection: why, for the model. */
  reason?: string;
}

/** Whether `item` belongs to a hosted tool (a call, an approval request or a decision). */
export function isHostedToolItem(item: ConversationItem): item is HostedToolItem {
  return (
    item.type === 'hosted_tool_call' ||
    item.type === 'hosted_tool_approval_request' ||
    item.type === 'hosted_tool_approval_response'
  );
}

/** A user message item. */
export function userMessage(content: string): MessageItem {
  return { type: 'message', role: 'user', content };
}

/** An assistant message item. */
export function assistantMessage(content: string): MessageItem {
  return { type: 'message', role: 'assistant', content };
}
