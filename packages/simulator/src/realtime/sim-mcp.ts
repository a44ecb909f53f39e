import type { WireMcpTool, WireServerEvent, WireTool } from '@parley/openai/wire';
import type { IdGenerator } from '../shared/ids.js';
import type { SimulatorConversation, StoredItem } from './sim-conversation.js';

/** A tool of a simulated MCP server. */
export interface SimulatedMcpTool {
  name: string;
  description?: string;
  /** Its input JSON Schema; default `{ type: 'object' }`. */
  inputSchema?: Record<string, unknown>;
}

/**
 * An MCP server the simulated service calls for an `mcp` tool whose `server_url` names it: a scripted one, or an
 * adapter over a real MCP client (e.g. a server on loopback). `headers` are the tool's `headers` (and its
 * `authorization` as a bearer token), as the service would send them.
 */
export interface SimulatedMcpServer {
  listTools(
    headers: Readonly<Record<string, string>>,
  ): readonly SimulatedMcpTool[] | Promise<readonly SimulatedMcpTool[]>;
  /** The call's output text; a throw fails the call (its message is the call's error). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    headers: Readonly<Record<string, string>>,
  ): string | Promise<string>;
}

/** A hosted MCP call the model made, as the brain sees it (after the last user message). */
export interface BrainHostedCall {
  server: string;
  name: string;
  arguments: string;
  output?: string;
  error?: string;
}

/** A decision on an MCP approval request, as the brain sees it (after the last user message). */
export interface BrainHostedApproval {
  approvalRequestId: string;
  server: string;
  name: string;
  approved: boolean;
  reason?: string;
}

/** Whether a call of `name` on `tool` waits for approval (`require_approval`: default `always`). */
export function mcpNeedsApproval(tool: WireMcpTool, name: string): boolean {
  const setting = tool.require_approval;
  if (setting === 'never') return false;
  if (setting === undefined || setting === 'always' || typeof setting !== 'object' || setting === null)
    return true;
  const names = (filter: unknown): string[] => {
    const list = (filter as { tool_names?: unknown } | undefined)?.tool_names;
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
  };
  const { never, always } = setting as { never?: unknown; always?: unknown };
  if (names(always).includes(name)) return true;
  return !names(never).includes(name);
}

/** The headers the service sends to an MCP server for `tool`. */
export function mcpHeaders(tool: WireMcpTool): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof tool.headers === 'object' && tool.headers !== null) {
    for (const [key, value] of Object.entries(tool.headers))
      if (typeof value === 'string') headers[key] = value;
  }
  if (typeof tool.authorization === 'string') headers.Authorization = `Bearer ${tool.authorization}`;
  return headers;
}

interface Listing {
  url: string;
  tools: Promise<SimulatedMcpTool[] | undefined>;
}

/**
 * The hosted MCP servers of one simulated connection. When the session's tools name a server (a label not listed
 * yet, or at another URL) the service lists its tools: an `mcp_list_tools` item enters the conversation
 * (`conversation.item.added`, `mcp_list_tools.in_progress`, then `.completed` or `.failed`, `conversation.item.done`).
 * Responses wait for the listing of a server before calling it.
 */
export class SimulatorMcp {
  readonly #servers: Readonly<Record<string, SimulatedMcpServer>>;
  readonly #ids: IdGenerator;
  readonly #conversation: SimulatorConversation;
  readonly #send: (event: WireServerEvent) => void;
  readonly #listings = new Map<string, Listing>();

  constructor(
    servers: Readonly<Record<string, SimulatedMcpServer>> | undefined,
    ids: IdGenerator,
    conversation: SimulatorConversation,
    send: (event: WireServerEvent) => void,
  ) {
    this.#servers = servers ?? {};
    this.#ids = ids;
    this.#conversation = conversation;
    this.#send = send;
  }

  /** The server an `mcp` tool names (by its `server_url`), if the simulator has it. */
  server(tool: WireMcpTool): SimulatedMcpServer | undefined {
    return typeof tool.server_url === 'string' ? this.#servers[tool.server_url] : undefined;
  }

  /** The session's tools changed: lists each MCP server not listed yet at its URL. */
  sessionTools(tools: readonly WireTool[] | undefined): void {
    for (const tool of tools ?? []) {
      if (tool.type !== 'mcp') continue;
      const url = String(tool.server_url ?? tool.connector_id ?? '');
      if (this.#listings.get(tool.server_label)?.url === url) continue;
      this.#listings.set(tool.server_label, { url, tools: this.#list(tool) });
    }
  }

  /** The tools `tool`'s server offers (its `allowed_tools` only); `undefined` when listing failed. */
  async tools(tool: WireMcpTool): Promise<SimulatedMcpTool[] | undefined> {
    if (!this.#listings.has(tool.server_label)) this.sessionTools([tool]);
    const listed = await this.#listings.get(tool.server_label)?.tools;
    const allowed = Array.isArray(tool.allowed_tools) ? (tool.allowed_tools as unknown[]) : undefined;
    return listed?.filter((t) => allowed === undefined || allowed.includes(t.name));
  }

  async #list(tool: WireMcpTool): Promise<SimulatedMcpTool[] | undefined> {
    const item: StoredItem & { type: 'mcp_list_tools' } = {
      id: this.#ids.next('item'),
      object: 'realtime.item',
      type: 'mcp_list_tools',
      server_label: tool.server_label,
      tools: [],
    };
    const previous = this.#conversation.insert(item);
    this.#send({ type: 'conversation.item.added', previous_item_id: previous, item: structuredClone(item) });
    this.#send({ type: 'mcp_list_tools.in_progress', item_id: item.id });
    let tools: SimulatedMcpTool[] | undefined;
    try {
      const server = this.server(tool);
      if (!server) throw new Error(`Error retrieving tool list from MCP server: '${tool.server_label}'.`);
      tools = [...(await server.listTools(mcpHeaders(tool)))];
      item.tools = tools.map((t) => ({
        name: t.name,
        description: t.description ?? null,
        input_schema: t.inputSchema ?? { type: 'object' },
      }));
      this.#send({ type: 'mcp_list_tools.completed', item_id: item.id });
    } catch (error) {
      item.error = error instanceof Error ? error.message : String(error);
      this.#send({ type: 'mcp_list_tools.failed', item_id: item.id });
    }
    this.#send({ type: 'conversation.item.done', previous_item_id: previous, item: structuredClone(item) });
    return tools;
  }
}

/** The hosted MCP calls and approval decisions among `items` (the context after the last user message). */
export function hostedActivity(items: readonly StoredItem[]): {
  calls: BrainHostedCall[];
  approvals: BrainHostedApproval[];
} {
  const calls: BrainHostedCall[] = [];
  const approvals: BrainHostedApproval[] = [];
  for (const item of items) {
    if (item.type === 'mcp_call') {
      calls.push({
        server: item.server_label,
        name: item.name,
        arguments: item.arguments,
        ...(typeof item.output === 'string' && { output: item.output }),
        ...(typeof item.error === 'string' && { error: item.error }),
      });
    } else if (item.type === 'mcp_approval_response') {
      const request = items.find((i) => i.id === item.approval_request_id);
      if (request?.type !== 'mcp_approval_request') continue;
      approvals.push({
        approvalRequestId: request.id,
        server: request.server_label,
        name: request.name,
        approved: item.approve,
        ...(typeof item.reason === 'string' && { reason: item.reason }),
      });
    }
  }
  return { calls, approvals };
}

/** Approved requests of the conversation whose call has not run yet, in order. */
export function approvedPending(
  items: readonly StoredItem[],
): (StoredItem & { type: 'mcp_approval_request' })[] {
  const ran = new Set(items.flatMap((item) => (item.type === 'mcp_call' ? [item.approval_request_id] : [])));
  const pending: (StoredItem & { type: 'mcp_approval_request' })[] = [];
  for (const item of items) {
    if (item.type !== 'mcp_approval_response' || !item.approve || ran.has(item.approval_request_id)) continue;
    const request = items.find((i) => i.id === item.approval_request_id);
    if (request?.type === 'mcp_approval_request') pending.push(request);
  }
  return pending;
}
