/** A kind of tool the provider runs itself that a realtime provider can declare (`capabilities.hostedTools`). */
export type RealtimeHostedToolKindV2 = 'mcp';

/** A remote MCP server the provider connects to and whose tools it calls itself. */
export interface RealtimeHostedMcpToolV2 {
  kind: 'mcp';
  /** The server's label, unique among the session's hosted MCP servers; calls and approvals name it. */
  server: string;
  /** The server's URL (or a provider connector named in `providerData`). */
  url?: string;
  /** Only these tools of the server are offered. Absent: all. */
  allowedTools?: string[];
  /** `always`: each call waits for `hosted_tool_approval_requested` to be answered; `never`: calls run at once. */
  requireApproval: 'always' | 'never';
  /** HTTP headers the provider sends to the server (credentials: never logged or echoed). */
  headers?: Record<string, string>;
  /** Provider-specific fields, merged into the provider's own tool definition. */
  providerData?: Record<string, unknown>;
}

/** A tool the provider runs itself, offered in the session configuration's `hostedTools`. */
export type RealtimeHostedToolV2 = RealtimeHostedMcpToolV2;

/** What a hosted MCP item did: call one of the server's tools, or list them. */
export type RealtimeHostedMcpActionV2 =
  | { type: 'call'; name: string; arguments: string; output?: string; error?: string }
  | {
      type: 'list_tools';
      tools: { name: string; description?: string; inputSchema: unknown }[];
      error?: string;
    };

/**
 * The provider ran (or is running) a hosted tool: one event when the call starts (`in_progress`) and one when it
 * ended (`completed` or `failed`, with its output or error); a server's tool list when the provider fetched it.
 */
export interface RealtimeHostedToolCallEventV2 {
  type: 'hosted_tool_call';
  /** The response the call belongs to; absent for a tool listing made outside a response. */
  responseId?: string;
  /** The provider's id of the call's item; the events of one call share it. */
  itemId: string;
  kind: 'mcp';
  server: string;
  status: 'in_progress' | 'completed' | 'failed';
  action: RealtimeHostedMcpActionV2;
  /** The approval request the call was made under, when it needed one. */
  approvalId?: string;
}

/**
 * The provider asks for a decision before it calls a hosted tool; answer with `sendHostedToolApproval`. The response
 * that asked ends without the call.
 */
export interface RealtimeHostedToolApprovalRequestedEventV2 {
  type: 'hosted_tool_approval_requested';
  responseId?: string;
  /** The provider's id of the request; the decision names it. */
  approvalId: string;
  kind: 'mcp';
  server: string;
  /** The server's tool the model wants to call. */
  name: string;
  /** The call's JSON arguments. */
  arguments: string;
}

/**
 * Adds the decision on a `hosted_tool_approval_requested` to the conversation (only where the provider declares
 * hosted tools). Like a tool output, it does not start a response by itself.
 */
export interface RealtimeSendHostedToolApprovalCommandV2 {
  type: 'sendHostedToolApproval';
  approvalId: string;
  approved: boolean;
  /** Why, for the model (a rejection's reason). */
  reason?: string;
}
