import type { RealtimeEvent, RealtimeHostedMcpActionV2 } from '@parley/core';
import { isPlainObject, type JsonObject, stringField } from '../shared/deep-merge.js';

type HostedEvent = Extract<RealtimeEvent, { type: 'hosted_tool_call' | 'hosted_tool_approval_requested' }>;
type HostedCall = Extract<HostedEvent, { type: 'hosted_tool_call' }>;

/** An MCP error as text: the service sends a string, or an object with a message or a code. */
function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'string') return error;
  if (isPlainObject(error))
    return stringField(error.message) ?? stringField(error.code) ?? JSON.stringify(error);
  return String(error);
}

function toolList(tools: unknown): Extract<RealtimeHostedMcpActionV2, { type: 'list_tools' }>['tools'] {
  if (!Array.isArray(tools)) return [];
  const list: Extract<RealtimeHostedMcpActionV2, { type: 'list_tools' }>['tools'] = [];
  for (const tool of tools) {
    if (!isPlainObject(tool)) continue;
    const name = stringField(tool.name);
    if (name === undefined) continue;
    const description = stringField(tool.description);
    list.push({
      name,
      ...(description !== undefined && { description }),
      inputSchema: tool.input_schema ?? {},
    });
  }
  return list;
}

/**
 * A GA hosted MCP item (`mcp_call`, `mcp_approval_request`, `mcp_list_tools`) as its seam event; `status` overrides
 * the one read from the item (a call announced by `response.output_item.added` is in progress). `undefined` for an
 * item without its id or server label, or another type.
 */
export function toHostedToolEvent(
  responseId: string | undefined,
  item: JsonObject,
  status?: 'in_progress',
): HostedEvent | undefined {
  const itemId = stringField(item.id);
  const server = stringField(item.server_label);
  if (itemId === undefined || server === undefined) return undefined;
  const response = responseId === undefined ? {} : { responseId };
  const error = errorText(item.error);
  const ended = error !== undefined ? 'failed' : 'completed';
  const call = (callStatus: HostedCall['status'], action: HostedCall['action']): HostedCall => ({
    type: 'hosted_tool_call',
    ...response,
    itemId,
    kind: 'mcp',
    server,
    status: callStatus,
    action,
  });
  switch (item.type) {
    case 'mcp_call': {
      const output = stringField(item.output);
      const approvalId = stringField(item.approval_request_id);
      return {
        ...call(status ?? ended, {
          type: 'call',
          name: stringField(item.name) ?? '',
          arguments: stringField(item.arguments) ?? '',
          ...(output !== undefined && { output }),
          ...(error !== undefined && { error }),
        }),
        ...(approvalId !== undefined && { approvalId }),
      };
    }
    case 'mcp_list_tools':
      return call(ended, {
        type: 'list_tools',
        tools: toolList(item.tools),
        ...(error !== undefined && { error }),
      });
    case 'mcp_approval_request':
      return {
        type: 'hosted_tool_approval_requested',
        ...response,
        approvalId: itemId,
        kind: 'mcp',
        server,
        name: stringField(item.name) ?? '',
        arguments: stringField(item.arguments) ?? '',
      };
    default:
      return undefined;
  }
}
