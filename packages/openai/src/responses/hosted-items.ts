import {
  type CodeInterpreterOutput,
  type FileSearchResult,
  HOSTED_TOOL_CALL_STATUSES,
  type HostedToolCallItem,
  type HostedToolCallStatus,
  type HostedToolItem,
  type McpHostedAction,
  type WebSearchAction,
} from '@parley/core';
import { isRecord, optionalString } from './json.js';

function status(value: unknown, fallback: HostedToolCallStatus): HostedToolCallStatus {
  return (HOSTED_TOOL_CALL_STATUSES as readonly unknown[]).includes(value)
    ? (value as HostedToolCallStatus)
    : fallback;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

function webSearchAction(value: unknown): WebSearchAction {
  const action = isRecord(value) ? value : {};
  if (action.type === 'open_page') {
    const url = optionalString(action.url);
    return url ? { type: 'open_page', url } : { type: 'open_page' };
  }
  if (action.type === 'find_in_page' || action.type === 'find') {
    return { type: 'find_in_page', url: String(action.url ?? ''), pattern: String(action.pattern ?? '') };
  }
  const queries = strings(action.queries);
  const query = optionalString(action.query);
  if (queries.length === 0 && query) queries.push(query);
  const sources = Array.isArray(action.sources)
    ? action.sources.flatMap((source) =>
        isRecord(source) && typeof source.url === 'string' ? [source.url] : [],
      )
    : [];
  return { type: 'search', queries, sources };
}

function fileResults(value: unknown): FileSearchResult[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((result) => {
    const mapped: FileSearchResult = {};
    if (typeof result.file_id === 'string') mapped.fileId = result.file_id;
    if (typeof result.filename === 'string') mapped.filename = result.filename;
    if (typeof result.score === 'number') mapped.score = result.score;
    if (typeof result.text === 'string') mapped.text = result.text;
    if (isRecord(result.attributes))
      mapped.attributes = result.attributes as Record<string, string | number | boolean>;
    return mapped;
  });
}

function codeOutputs(value: unknown): CodeInterpreterOutput[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((output): CodeInterpreterOutput[] => {
    if (output.type === 'logs' && typeof output.logs === 'string')
      return [{ type: 'logs', logs: output.logs }];
    if (output.type === 'image' && typeof output.url === 'string')
      return [{ type: 'image', url: output.url }];
    return [];
  });
}

function errorText(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined;
  if (isRecord(value)) return optionalString(value.message) ?? JSON.stringify(value);
  return undefined;
}

/**
 * A Responses output item of a hosted tool as a neutral item (the wire item kept as `providerData`), or
 * `undefined` for any other item type.
 */
export function fromResponsesHostedItem(item: Record<string, unknown>): HostedToolItem | undefined {
  const id = optionalString(item.id) ?? '';
  const base = { type: 'hosted_tool_call', id, providerData: item } as const;
  switch (item.type) {
    case 'web_search_call':
      return {
        ...base,
        kind: 'web_search',
        status: status(item.status, 'completed'),
        action: webSearchAction(item.action),
      };
    case 'file_search_call':
      return {
        ...base,
        kind: 'file_search',
        status: status(item.status, 'completed'),
        queries: strings(item.queries),
        results: fileResults(item.results),
      };
    case 'code_interpreter_call': {
      const call: HostedToolCallItem = {
        ...base,
        kind: 'code_interpreter',
        status: status(item.status, 'completed'),
        code: typeof item.code === 'string' ? item.code : '',
        outputs: codeOutputs(item.outputs),
        ...(typeof item.container_id === 'string' && { containerId: item.container_id }),
      };
      return call;
    }
    case 'image_generation_call':
      return {
        ...base,
        kind: 'image_generation',
        status: status(item.status, 'completed'),
        ...(typeof item.result === 'string' && item.result !== '' && { imageBase64: item.result }),
      };
    case 'mcp_call': {
      const error = errorText(item.error);
      const action: McpHostedAction = {
        type: 'call',
        name: String(item.name ?? ''),
        arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
        ...(typeof item.output === 'string' && { output: item.output }),
        ...(error !== undefined && { error }),
      };
      return {
        ...base,
        kind: 'mcp',
        status: status(item.status, error === undefined ? 'completed' : 'failed'),
        server: String(item.server_label ?? ''),
        action,
      };
    }
    case 'mcp_list_tools': {
      const error = errorText(item.error);
      const tools = Array.isArray(item.tools)
        ? item.tools.filter(isRecord).map((tool) => ({
            name: String(tool.name ?? ''),
            ...(typeof tool.description === 'string' && { description: tool.description }),
            inputSchema: tool.input_schema,
          }))
        : [];
      return {
        ...base,
        kind: 'mcp',
        status: error === undefined ? 'completed' : 'failed',
        server: String(item.server_label ?? ''),
        action: { type: 'list_tools', tools, ...(error !== undefined && { error }) },
      };
    }
    case 'mcp_approval_request':
      return {
        type: 'hosted_tool_approval_request',
        callId: id,
        server: String(item.server_label ?? ''),
        name: String(item.name ?? ''),
        arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
      };
    default:
      return undefined;
  }
}

/** A neutral hosted tool item as a Responses input item. */
export function toResponsesHostedItem(item: HostedToolItem): Record<string, unknown> {
  switch (item.type) {
    case 'hosted_tool_call':
      return item.providerData ?? rebuilt(item);
    case 'hosted_tool_approval_request':
      return {
        type: 'mcp_approval_request',
        id: item.callId,
        server_label: item.server,
        name: item.name,
        arguments: item.arguments,
      };
    case 'hosted_tool_approval_response':
      return {
        type: 'mcp_approval_response',
        approval_request_id: item.callId,
        approve: item.approved,
        ...(item.reason !== undefined && { reason: item.reason }),
      };
  }
}

/** The wire form of a call item that came without its provider's form (e.g. written by hand). */
function rebuilt(item: HostedToolCallItem): Record<string, unknown> {
  const base = { id: item.id, status: item.status };
  switch (item.kind) {
    case 'web_search':
      return {
        ...base,
        type: 'web_search_call',
        action:
          item.action.type === 'search'
            ? {
                type: 'search',
                queries: item.action.queries,
                sources: item.action.sources.map((url) => ({ type: 'url', url })),
              }
            : item.action,
      };
    case 'file_search':
      return { ...base, type: 'file_search_call', queries: item.queries };
    case 'code_interpreter':
      return {
        ...base,
        type: 'code_interpreter_call',
        code: item.code,
        container_id: item.containerId,
        outputs: item.outputs,
      };
    case 'image_generation':
      return { ...base, type: 'image_generation_call', result: item.imageBase64 ?? null };
    case 'mcp':
      return item.action.type === 'call'
        ? {
            id: item.id,
            type: 'mcp_call',
            server_label: item.server,
            name: item.action.name,
            arguments: item.action.arguments,
            ...(item.action.output !== undefined && { output: item.action.output }),
            ...(item.action.error !== undefined && { error: item.action.error }),
          }
        : {
            id: item.id,
            type: 'mcp_list_tools',
            server_label: item.server,
            tools: item.action.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.inputSchema,
            })),
          };
  }
}
