import type { RunContext } from './context.js';
import { UserError } from './errors.js';
import { optionKeys } from './option-keys.js';
import { invalidOption } from './option-values.js';

/** The kinds of tools a provider runs itself: the model calls them and the provider returns their results. */
export const HOSTED_TOOL_KINDS = [
  'web_search',
  'file_search',
  'code_interpreter',
  'image_generation',
  'mcp',
] as const;

/** A kind of hosted tool; a model declares the kinds it runs in `capabilities.hostedTools`. */
export type HostedToolKind = (typeof HOSTED_TOOL_KINDS)[number];

/** Provider options of a hosted tool, sent as they are (a provider package types them, e.g. `webSearchTool()`). */
export type HostedToolProviderData = Readonly<Record<string, unknown>>;

/** What every hosted tool has. */
export interface HostedToolBase {
  /** Discriminates hosted tools from function tools. */
  readonly type: 'hosted';
  /** Provider options, merged into the tool's definition as the provider sends it. */
  readonly providerData?: HostedToolProviderData;
}

/** The provider searches the web. */
export interface WebSearchHostedTool extends HostedToolBase {
  readonly kind: 'web_search';
}

/** The provider searches files it stores (e.g. vector stores). */
export interface FileSearchHostedTool extends HostedToolBase {
  readonly kind: 'file_search';
  /** The provider's ids of the stores to search. */
  readonly stores: readonly string[];
  /** At most this many results per search. */
  readonly maxResults?: number;
}

/** The provider runs code the model writes, in a sandbox it owns. */
export interface CodeInterpreterHostedTool extends HostedToolBase {
  readonly kind: 'code_interpreter';
}

/** The provider generates images. */
export interface ImageGenerationHostedTool extends HostedToolBase {
  readonly kind: 'image_generation';
}

/** A hosted MCP call waiting for a decision, as {@link McpHostedTool.onApproval} gets it. */
export interface HostedMcpApprovalRequest {
  /** The server's label. */
  readonly server: string;
  /** The server's tool the model wants to call. */
  readonly name: string;
  /** The call's JSON arguments, as the model wrote them. */
  readonly arguments: string;
  /** Aborted when the answer is no longer needed (the run is cancelled; the session closes or loses its connection). */
  readonly signal: AbortSignal;
}

/** A decision on a hosted MCP call: approve it, or reject it (`reason` goes to the model). */
export type HostedMcpApprovalDecision = { approve: true } | { approve: false; reason?: string };

/** Decides a hosted MCP call's approval by itself (see {@link McpHostedTool.onApproval}). */
export type HostedMcpApprovalFunction = (
  // biome-ignore lint/suspicious/noExplicitAny: a hosted tool serves agents of every context type
  runContext: RunContext<any>,
  request: HostedMcpApprovalRequest,
) => HostedMcpApprovalDecision | Promise<HostedMcpApprovalDecision>;

/** The provider connects to an MCP server and calls its tools itself. */
export interface McpHostedTool extends HostedToolBase {
  readonly kind: 'mcp';
  /** A label for the server: unique among the agent's hosted MCP servers, named in calls and approvals. */
  readonly server: string;
  /** The server's URL (or name a provider connector in `providerData`). */
  readonly url?: string;
  /** Only these tools of the server are offered. Default: all. */
  readonly allowedTools?: readonly string[];
  /**
   * `'always'` (default): every call waits for the app's approval, surfaced like a function tool's
   * (`result.interruptions`, or the realtime session's `tool_approval_requested`). `'never'`: calls run at once.
   */
  readonly requireApproval?: 'always' | 'never';
  /**
   * Decides each approval the provider asks for, instead of pausing for the app: the run goes on (or the realtime
   * session answers the provider) with its decision. It may be async. A function that throws rejects the call (fail
   * closed) and the error is reported. Absent: approvals pause as described under `requireApproval`.
   */
  readonly onApproval?: HostedMcpApprovalFunction;
  /**
   * HTTP headers the provider sends to the server (e.g. `Authorization`). They go to the provider only: never
   * into errors, events, logs, spans or a saved `RunState`.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A tool the provider runs itself, declared on an agent's `hostedTools`. */
export type HostedTool =
  | WebSearchHostedTool
  | FileSearchHostedTool
  | CodeInterpreterHostedTool
  | ImageGenerationHostedTool
  | McpHostedTool;

/** Options of {@link hostedTool}: a hosted tool without its `type`. */
export type HostedToolOptions = HostedTool extends infer T
  ? T extends HostedTool
    ? Omit<T, 'type'>
    : never
  : never;

const COMMON = { kind: true, providerData: true } as const;
const KEYS = {
  web_search: optionKeys<Omit<WebSearchHostedTool, 'type'>>('hostedTool web_search options', COMMON),
  file_search: optionKeys<Omit<FileSearchHostedTool, 'type'>>('hostedTool file_search options', {
    ...COMMON,
    stores: true,
    maxResults: true,
  }),
  code_interpreter: optionKeys<Omit<CodeInterpreterHostedTool, 'type'>>(
    'hostedTool code_interpreter options',
    COMMON,
  ),
  image_generation: optionKeys<Omit<ImageGenerationHostedTool, 'type'>>(
    'hostedTool image_generation options',
    COMMON,
  ),
  mcp: optionKeys<Omit<McpHostedTool, 'type'>>('hostedTool mcp options', {
    ...COMMON,
    server: true,
    url: true,
    allowedTools: true,
    requireApproval: true,
    onApproval: true,
    headers: true,
  }),
};

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry !== '');
}

/**
 * Declares a tool the provider runs itself, for an agent's `hostedTools`. Only models that declare the kind in
 * `capabilities.hostedTools` accept it; a run with another model fails before its request. Provider packages
 * type the provider options (e.g. `webSearchTool()` of `@parley/openai`).
 *
 * ```ts
 * const researcher = new Agent({ name: 'Researcher', hostedTools: [hostedTool({ kind: 'web_search' })] });
 * ```
 */
export function hostedTool<const T extends HostedToolOptions>(
  options: T,
): Extract<HostedTool, { kind: T['kind'] }> {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption("hostedTool() needs an options object, e.g. hostedTool({ kind: 'web_search' }).");
  }
  const kind = (options as { kind?: unknown }).kind;
  if (!HOSTED_TOOL_KINDS.includes(kind as HostedToolKind)) {
    throw invalidOption(
      `hostedTool(): kind must be one of ${HOSTED_TOOL_KINDS.map((k) => `'${k}'`).join(', ')}, got ${JSON.stringify(kind)}.`,
    );
  }
  KEYS[kind as HostedToolKind].check(options);
  const { providerData } = options;
  if (providerData !== undefined && (typeof providerData !== 'object' || providerData === null)) {
    throw invalidOption(`hostedTool(${kind}): providerData must be an object.`);
  }
  if (options.kind === 'file_search') {
    if (!isStringList(options.stores) || options.stores.length === 0) {
      throw invalidOption("hostedTool(file_search): stores must list the provider's store ids to search.");
    }
    if (
      options.maxResults !== undefined &&
      !(Number.isInteger(options.maxResults) && options.maxResults > 0)
    ) {
      throw invalidOption('hostedTool(file_search): maxResults must be a positive integer.');
    }
  }
  if (options.kind === 'mcp') {
    if (typeof options.server !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(options.server)) {
      throw invalidOption('hostedTool(mcp): server must be a label of 1-64 letters, digits, "_" or "-".');
    }
    if (options.url !== undefined && !/^https?:\/\//.test(String(options.url))) {
      throw invalidOption(`hostedTool(mcp) "${options.server}": url must be an http(s) URL.`);
    }
    if (options.allowedTools !== undefined && !isStringList(options.allowedTools)) {
      throw invalidOption(`hostedTool(mcp) "${options.server}": allowedTools must be a list of tool names.`);
    }
    if (options.requireApproval !== undefined && !['always', 'never'].includes(options.requireApproval)) {
      throw invalidOption(
        `hostedTool(mcp) "${options.server}": requireApproval must be 'always' or 'never'.`,
      );
    }
    if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
      throw invalidOption(
        `hostedTool(mcp) "${options.server}": onApproval must be a function returning { approve: true } or { approve: false, reason? }.`,
      );
    }
  }
  return Object.freeze({ ...options, type: 'hosted' }) as unknown as Extract<HostedTool, { kind: T['kind'] }>;
}

/** The name a hosted tool goes by in errors and duplicate checks: its kind, or `mcp:<server>`. */
export function hostedToolName(tool: HostedTool): string {
  return tool.kind === 'mcp' ? `mcp:${tool.server}` : tool.kind;
}

/**
 * A model was asked to offer a hosted tool it does not run. Thrown before the request; `kind` is the tool's kind,
 * `provider` the model's provider name.
 */
export class HostedToolUnsupportedError extends UserError {
  readonly kind: HostedToolKind;
  readonly provider: string;

  constructor(kind: HostedToolKind, provider: string, where: string, supported: readonly HostedToolKind[]) {
    super(
      `${where} offers the hosted tool '${kind}', but the ${provider} model does not run hosted ${kind} tools (it runs ${supported.length > 0 ? supported.map((k) => `'${k}'`).join(', ') : 'none'}). Use a model whose capabilities.hostedTools include '${kind}' (e.g. OpenAIResponsesModel of @parley/openai), or remove the tool.`,
      { code: 'hosted_tool_unsupported' },
    );
    this.kind = kind;
    this.provider = provider;
  }
}

/** Throws {@link HostedToolUnsupportedError} for the first of `tools` whose kind `supported` lacks. */
export function checkHostedTools(
  tools: readonly HostedTool[],
  provider: string,
  supported: readonly HostedToolKind[] | undefined,
  where: string,
): void {
  for (const tool of tools) {
    if (!supported?.includes(tool.kind)) {
      throw new HostedToolUnsupportedError(tool.kind, provider, where, supported ?? []);
    }
  }
}

/**
 * Asks `tool.onApproval` for its decision on a hosted MCP call; `undefined` when the tool has none (the app decides).
 * A function that throws, or returns something else than a decision, rejects the call; `onError` gets the error.
 */
export async function decideHostedMcpApproval(
  tool: McpHostedTool | undefined,
  runContext: RunContext<unknown>,
  request: HostedMcpApprovalRequest,
  onError: (error: unknown) => void,
): Promise<HostedMcpApprovalDecision | undefined> {
  const decide = tool?.onApproval;
  if (decide === undefined) return undefined;
  try {
    const decision = await decide(runContext, request);
    if (decision?.approve === true) return { approve: true };
    if (decision?.approve === false) {
      return typeof decision.reason === 'string'
        ? { approve: false, reason: decision.reason }
        : { approve: false };
    }
    throw new UserError(
      `The onApproval of hosted MCP server "${request.server}" returned ${JSON.stringify(decision)}; return { approve: true } or { approve: false, reason? }.`,
      { code: 'invalid_approval_decision' },
    );
  } catch (error) {
    if (request.signal.aborted) throw error;
    onError(error);
    return { approve: false };
  }
}

/** The hosted MCP server labelled `server` among `tools`. */
export function findHostedMcpTool(tools: readonly HostedTool[], server: string): McpHostedTool | undefined {
  return tools.find((tool): tool is McpHostedTool => tool.kind === 'mcp' && tool.server === server);
}
