import type { AnyFunctionTool, JsonSchema } from '@parley/core';
import { defaultToolErrorFunction, tool, UserError } from '@parley/core';
import { z } from 'zod';
import { MCPServerError } from './errors.js';
import type { MCPServerOptions } from './options.js';

/** A tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

/** Calls a tool on the server and returns the text the model sees. */
export type CallMcpTool = (
  serverToolName: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<string>;

const INVALID_NAME_CHARS = /[^a-zA-Z0-9_-]/g;

/** The name the model calls: the prefix and the server's name, with characters tools cannot have replaced by `_`. */
function exposedName(prefix: string, serverName: string): string {
  return `${prefix}${serverName}`.replace(INVALID_NAME_CHARS, '_').slice(0, 64);
}

/** The zod validator of a server's input schema; a schema zod cannot express is left to the server to check. */
function parametersOf(schema: McpToolInfo['inputSchema']): z.ZodObject {
  try {
    const converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (converted instanceof z.ZodObject) return converted;
  } catch {
    // Falls through: the server validates its own arguments.
  }
  return z.looseObject({});
}

/** The server's tools, filtered, as Parley function tools that call the server. */
export function mcpTools<TContext>(
  listed: readonly McpToolInfo[],
  serverName: string,
  options: MCPServerOptions<TContext>,
  call: CallMcpTool,
): AnyFunctionTool<TContext>[] {
  const { allow, deny } = options.toolFilter ?? {};
  const prefix = options.toolNamePrefix ?? '';
  const names = new Map<string, string>();
  const tools: AnyFunctionTool<TContext>[] = [];
  for (const info of listed) {
    if (allow && !allow.includes(info.name)) continue;
    if (deny?.includes(info.name)) continue;
    const name = exposedName(prefix, info.name);
    const clash = names.get(name);
    if (clash !== undefined) {
      throw new UserError(
        `MCP server "${serverName}" has tools "${clash}" and "${info.name}", which both become "${name}" for the model. Filter one out with toolFilter.`,
        { code: 'tool_name_conflict' },
      );
    }
    names.set(name, info.name);
    const made = tool<TContext, z.ZodObject>({
      name,
      description: info.description ?? '',
      parameters: parametersOf(info.inputSchema),
      execute: (input, { signal }) => call(info.name, input as Record<string, unknown>, signal),
      needsApproval: approvalOf(options, info.name),
      // A tool's own error result (isError) is written for the model, as are Parley's words for a failed server;
      // anything else thrown keeps the generic text.
      errorFunction: (context, error) =>
        error instanceof MCPServerError
          ? `An error occurred while running the tool. ${error.message}`
          : defaultToolErrorFunction(context, error),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.timeoutBehavior !== undefined && { timeoutBehavior: options.timeoutBehavior }),
      ...(options.inputGuardrails && { inputGuardrails: options.inputGuardrails }),
      ...(options.outputGuardrails && { outputGuardrails: options.outputGuardrails }),
    });
    // The model is offered the server's own schema, not a round trip of it through zod.
    const { $schema: _ignored, ...jsonSchema } = info.inputSchema as JsonSchema;
    tools.push({ ...made, jsonSchema });
  }
  return tools;
}

function approvalOf<TContext>(
  options: MCPServerOptions<TContext>,
  serverToolName: string,
): Parameters<typeof tool<TContext, z.ZodObject>>[0]['needsApproval'] {
  const setting = options.needsApproval;
  if (setting === undefined || typeof setting === 'boolean') return setting ?? false;
  if (typeof setting !== 'function') return setting.includes(serverToolName);
  return (context, input, call) =>
    setting(context, input as Record<string, unknown>, { ...call, serverToolName });
}
