/** The neutral fields of a hosted MCP server, as core's hosted tool and the realtime seam both carry them. */
export interface McpToolFields {
  readonly server: string;
  readonly url?: string;
  readonly allowedTools?: readonly string[];
  readonly requireApproval?: 'always' | 'never';
  readonly headers?: Readonly<Record<string, string>>;
  readonly providerData?: Readonly<Record<string, unknown>>;
}

/**
 * An MCP tool definition as OpenAI's Responses and Realtime APIs both take it (`type: 'mcp'`): the neutral fields
 * mapped, then `providerData` (connector id, authorization, server description). Approval defaults to `always`.
 */
export function toWireMcpTool(tool: McpToolFields): {
  type: 'mcp';
  server_label: string;
  [extra: string]: unknown;
} {
  return {
    type: 'mcp',
    server_label: tool.server,
    ...(tool.url !== undefined && { server_url: tool.url }),
    ...(tool.allowedTools !== undefined && { allowed_tools: [...tool.allowedTools] }),
    require_approval: tool.requireApproval ?? 'always',
    ...(tool.headers !== undefined && { headers: { ...tool.headers } }),
    ...tool.providerData,
  };
}
