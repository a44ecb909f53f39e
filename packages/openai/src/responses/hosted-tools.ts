import {
  type CodeInterpreterHostedTool,
  type FileSearchHostedTool,
  type HostedMcpApprovalFunction,
  type HostedTool,
  type HostedToolKind,
  hostedTool,
  type ImageGenerationHostedTool,
  type McpHostedTool,
  type WebSearchHostedTool,
} from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { toWireMcpTool } from '../shared/mcp-wire-tool.js';

/** The hosted tool kinds the Responses API runs. */
export const RESPONSES_HOSTED_TOOLS: readonly HostedToolKind[] = Object.freeze([
  'web_search',
  'file_search',
  'code_interpreter',
  'image_generation',
  'mcp',
]);

/** Options of {@link webSearchTool}. */
export interface WebSearchToolOptions {
  /** How much context the search gathers: `low`, `medium` (API default) or `high`. */
  searchContextSize?: 'low' | 'medium' | 'high';
  /** An approximate user location, to localize results. */
  userLocation?: { city?: string; country?: string; region?: string; timezone?: string };
  /** Only search these domains. */
  allowedDomains?: string[];
}

/** Options of {@link fileSearchTool}. */
export interface FileSearchToolOptions {
  /** The vector store ids to search. */
  vectorStoreIds: string[];
  /** At most this many results (1-50). */
  maxNumResults?: number;
  /** Include the results' text in the call item (`file_search_call.results`). Default `true`. */
  includeResults?: boolean;
}

/** Options of {@link codeInterpreterTool}. */
export interface CodeInterpreterToolOptions {
  /** A container id, or files for an automatically created container. Default: an automatic container. */
  container?: string | { fileIds: string[] };
}

/** Options of {@link imageGenerationTool}. */
export interface ImageGenerationToolOptions {
  size?: '1024x1024' | '1024x1536' | '1536x1024' | 'auto';
  quality?: 'low' | 'medium' | 'high' | 'auto';
  outputFormat?: 'png' | 'webp' | 'jpeg';
  background?: 'transparent' | 'opaque' | 'auto';
}

/** Options of {@link hostedMcpTool}. */
export interface HostedMcpToolOptions {
  /** A label for the server, unique among the agent's hosted MCP servers. */
  serverLabel: string;
  /** The server's URL; or `connectorId` for an OpenAI connector. */
  serverUrl?: string;
  /** An OpenAI connector id (e.g. `connector_gmail`) instead of a URL. */
  connectorId?: string;
  /** An OAuth token for the server or connector. Sent to OpenAI only. */
  authorization?: string;
  /** What the server does, for the model. */
  serverDescription?: string;
  /** Only these tools of the server. */
  allowedTools?: string[];
  /** `'always'` (default): each call waits for the app's approval. `'never'`: calls run at once. */
  requireApproval?: 'always' | 'never';
  /**
   * Decides each approval instead of pausing for the app (sync or async): `{ approve: true }` or
   * `{ approve: false, reason? }`. A throw rejects the call.
   */
  onApproval?: HostedMcpApprovalFunction;
  /** HTTP headers sent to the server. Sent to OpenAI only. */
  headers?: Record<string, string>;
}

const WEB_SEARCH_OPTIONS = optionKeys<WebSearchToolOptions>('webSearchTool options', {
  searchContextSize: true,
  userLocation: true,
  allowedDomains: true,
});
const FILE_SEARCH_OPTIONS = optionKeys<FileSearchToolOptions>('fileSearchTool options', {
  vectorStoreIds: true,
  maxNumResults: true,
  includeResults: true,
});
const CODE_OPTIONS = optionKeys<CodeInterpreterToolOptions>('codeInterpreterTool options', {
  container: true,
});
const IMAGE_OPTIONS = optionKeys<ImageGenerationToolOptions>('imageGenerationTool options', {
  size: true,
  quality: true,
  outputFormat: true,
  background: true,
});
const MCP_OPTIONS = optionKeys<HostedMcpToolOptions>('hostedMcpTool options', {
  serverLabel: true,
  serverUrl: true,
  connectorId: true,
  authorization: true,
  serverDescription: true,
  allowedTools: true,
  requireApproval: true,
  onApproval: true,
  headers: true,
});

/** The fields of `entries` that are set. */
function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

/** OpenAI's web search, as a hosted tool for an agent's `hostedTools`. */
export function webSearchTool(options: WebSearchToolOptions = {}): WebSearchHostedTool {
  WEB_SEARCH_OPTIONS.check(options);
  const providerData = defined({
    search_context_size: options.searchContextSize,
    user_location: options.userLocation && { type: 'approximate', ...options.userLocation },
    filters: options.allowedDomains && { allowed_domains: options.allowedDomains },
  });
  return hostedTool({ kind: 'web_search', providerData });
}

/** OpenAI's file search over vector stores, as a hosted tool. */
export function fileSearchTool(options: FileSearchToolOptions): FileSearchHostedTool {
  FILE_SEARCH_OPTIONS.check(options ?? {});
  return hostedTool({
    kind: 'file_search',
    stores: options?.vectorStoreIds,
    ...(options?.maxNumResults !== undefined && { maxResults: options.maxNumResults }),
    providerData: { include_results: options?.includeResults ?? true },
  } as Omit<FileSearchHostedTool, 'type'>);
}

/** OpenAI's code interpreter, as a hosted tool. */
export function codeInterpreterTool(options: CodeInterpreterToolOptions = {}): CodeInterpreterHostedTool {
  CODE_OPTIONS.check(options);
  const { container } = options;
  return hostedTool({
    kind: 'code_interpreter',
    providerData: {
      container:
        typeof container === 'string'
          ? container
          : { type: 'auto', ...(container?.fileIds && { file_ids: container.fileIds }) },
    },
  });
}

/** OpenAI's image generation, as a hosted tool; the images arrive base64-encoded on the call items. */
export function imageGenerationTool(options: ImageGenerationToolOptions = {}): ImageGenerationHostedTool {
  IMAGE_OPTIONS.check(options);
  return hostedTool({
    kind: 'image_generation',
    providerData: defined({
      size: options.size,
      quality: options.quality,
      output_format: options.outputFormat,
      background: options.background,
    }),
  });
}

/**
 * A remote MCP server (or an OpenAI connector) OpenAI calls itself, as a hosted tool. Calls wait for the app's
 * approval unless `requireApproval: 'never'`.
 */
export function hostedMcpTool(options: HostedMcpToolOptions): McpHostedTool {
  MCP_OPTIONS.check(options ?? {});
  const { serverLabel, serverUrl, connectorId, authorization, serverDescription } = options ?? {};
  return hostedTool({
    kind: 'mcp',
    server: serverLabel,
    ...(serverUrl !== undefined && { url: serverUrl }),
    ...(options?.allowedTools !== undefined && { allowedTools: options.allowedTools }),
    ...(options?.requireApproval !== undefined && { requireApproval: options.requireApproval }),
    ...(options?.onApproval !== undefined && { onApproval: options.onApproval }),
    ...(options?.headers !== undefined && { headers: options.headers }),
    providerData: defined({
      connector_id: connectorId,
      authorization,
      server_description: serverDescription,
    }),
  } as Omit<McpHostedTool, 'type'>);
}

/** The Responses API definition of a hosted tool: the neutral fields mapped, then its `providerData`. */
export function toResponsesHostedTool(tool: HostedTool): Record<string, unknown> {
  const extra = tool.providerData ?? {};
  switch (tool.kind) {
    case 'web_search':
      return { type: 'web_search', ...extra };
    case 'file_search':
      return {
        type: 'file_search',
        vector_store_ids: [...tool.stores],
        ...(tool.maxResults !== undefined && { max_num_results: tool.maxResults }),
        ...withoutKeys(extra, ['include_results']),
      };
    case 'code_interpreter':
      return { type: 'code_interpreter', container: { type: 'auto' }, ...extra };
    case 'image_generation':
      return { type: 'image_generation', ...extra };
    case 'mcp':
      return toWireMcpTool(tool);
  }
}

function withoutKeys(record: Readonly<Record<string, unknown>>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

/**
 * The `include` entries a request needs for its hosted tools' results to arrive on their items (web search
 * sources, file search results, code interpreter outputs).
 */
export function hostedToolIncludes(tools: readonly HostedTool[]): string[] {
  const include: string[] = [];
  for (const tool of tools) {
    if (tool.kind === 'file_search' && tool.providerData?.include_results !== false)
      include.push('file_search_call.results');
    if (tool.kind === 'code_interpreter') include.push('code_interpreter_call.outputs');
    if (tool.kind === 'web_search') include.push('web_search_call.action.sources');
  }
  return include;
}
