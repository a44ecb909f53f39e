import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { UserError } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { MCPServer } from './mcp-server.js';
import { checkServerOptions, type MCPServerOptions, SERVER_OPTION_LIST } from './options.js';

/** Options of {@link MCPServerStdio}: the command that starts the server, and {@link MCPServerOptions}. */
export interface MCPServerStdioOptions<TContext = unknown> extends MCPServerOptions<TContext> {
  /** The executable, e.g. `npx` or `node`. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Its environment. Default: a safe subset of this process's (PATH, HOME, …), as the MCP SDK chooses. */
  env?: Record<string, string>;
  /** Its working directory. */
  cwd?: string;
  /** Where its stderr goes: `inherit` (default: this process's stderr), `pipe` or `ignore`. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
}

/** Options of {@link MCPServerStreamableHttp} and {@link MCPServerSse}. */
export interface MCPServerHttpOptions<TContext = unknown> extends MCPServerOptions<TContext> {
  /** The server's endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`); never logged or put in errors. */
  headers?: Record<string, string>;
  /** The `fetch` the requests use. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

const STDIO_OPTIONS = optionKeys<MCPServerStdioOptions>('MCPServerStdioOptions', {
  ...SERVER_OPTION_LIST,
  command: true,
  args: true,
  env: true,
  cwd: true,
  stderr: true,
});

const HTTP_OPTIONS = optionKeys<MCPServerHttpOptions>('MCPServerHttpOptions', {
  ...SERVER_OPTION_LIST,
  url: true,
  headers: true,
  fetch: true,
});

function checkOptionsObject(owner: string, options: unknown): asserts options is object {
  if (typeof options !== 'object' || options === null) {
    throw new UserError(`new ${owner}() needs an options object.`, { code: 'invalid_option' });
  }
}

/**
 * An MCP server started as a child process, spoken to over its stdin and stdout. The process starts with the first
 * run or session that uses it (or `connect()`), and ends when it is closed.
 *
 * ```ts
 * await using files = new MCPServerStdio({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] });
 * const agent = new Agent({ name: 'Assistant', toolSources: [files] });
 * ```
 */
export class MCPServerStdio<TContext = unknown> extends MCPServer<TContext> {
  readonly #options: MCPServerStdioOptions<TContext>;

  constructor(options: MCPServerStdioOptions<TContext>) {
    checkOptionsObject('MCPServerStdio', options);
    STDIO_OPTIONS.check(options);
    if (typeof options.command !== 'string' || options.command === '') {
      throw new UserError('MCPServerStdio: command must name the executable that starts the server.', {
        code: 'invalid_option',
      });
    }
    if (
      options.args !== undefined &&
      !(Array.isArray(options.args) && options.args.every((a) => typeof a === 'string'))
    ) {
      throw new UserError('MCPServerStdio: args must be an array of strings.', { code: 'invalid_option' });
    }
    if (options.stderr !== undefined && !['inherit', 'pipe', 'ignore'].includes(options.stderr)) {
      throw new UserError("MCPServerStdio: stderr must be 'inherit', 'pipe' or 'ignore'.", {
        code: 'invalid_option',
      });
    }
    checkServerOptions('MCPServerStdio', options);
    super(options.name ?? options.command.split(/[\\/]/).pop() ?? options.command, options);
    this.#options = options;
  }

  /** @internal */
  protected createTransport(): Transport {
    const { command, args, env, cwd, stderr } = this.#options;
    return new StdioClientTransport({
      command,
      ...(args && { args }),
      ...(env && { env }),
      ...(cwd && { cwd }),
      stderr: stderr ?? 'inherit',
    });
  }
}

function checkHttpOptions<TContext>(owner: string, options: MCPServerHttpOptions<TContext>): URL {
  checkOptionsObject(owner, options);
  HTTP_OPTIONS.check(options);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new UserError(`${owner}: url must be an absolute http(s) URL.`, { code: 'invalid_option' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UserError(`${owner}: url must be an http(s) URL, got ${url.protocol}.`, {
      code: 'invalid_option',
    });
  }
  if (options.headers !== undefined && (typeof options.headers !== 'object' || options.headers === null)) {
    throw new UserError(`${owner}: headers must be an object of header names to values.`, {
      code: 'invalid_option',
    });
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new UserError(`${owner}: fetch must be a fetch function.`, { code: 'invalid_option' });
  }
  checkServerOptions(owner, options);
  return url;
}

/** An MCP server reached over HTTP: the checked URL and options, and the transport made of them. */
export abstract class MCPHttpServer<TContext = unknown> extends MCPServer<TContext> {
  readonly #url: URL;
  readonly #options: MCPServerHttpOptions<TContext>;

  protected constructor(owner: string, options: MCPServerHttpOptions<TContext>) {
    const url = checkHttpOptions(owner, options);
    super(options.name ?? url.host, options);
    this.#url = url;
    this.#options = options;
  }

  /** @internal */
  protected createTransport(): Transport {
    return this.createHttpTransport(this.#url, this.#options);
  }

  /** @internal */
  protected abstract createHttpTransport(url: URL, options: MCPServerHttpOptions<TContext>): Transport;
}

/**
 * An MCP server reached over Streamable HTTP (the current MCP transport).
 *
 * ```ts
 * await using docs = new MCPServerStreamableHttp({ url: 'https://example.com/mcp', headers: { Authorization: `Bearer ${token}` } });
 * ```
 */
export class MCPServerStreamableHttp<TContext = unknown> extends MCPHttpServer<TContext> {
  constructor(options: MCPServerHttpOptions<TContext>) {
    super('MCPServerStreamableHttp', options);
  }

  /** @internal */
  protected createHttpTransport(url: URL, { headers, fetch }: MCPServerHttpOptions<TContext>): Transport {
    return new StreamableHTTPClientTransport(url, {
      ...(headers && { requestInit: { headers } }),
      ...(fetch && { fetch }),
    });
  }
}

/** An MCP server reached over the older HTTP+SSE transport (servers that predate Streamable HTTP). */
export class MCPServerSse<TContext = unknown> extends MCPHttpServer<TContext> {
  constructor(options: MCPServerHttpOptions<TContext>) {
    super('MCPServerSse', options);
  }

  /** @internal */
  protected createHttpTransport(url: URL, { headers, fetch }: MCPServerHttpOptions<TContext>): Transport {
    return new SSEClientTransport(url, {
      ...(headers && {
        requestInit: { headers },
        eventSourceInit: { fetch: withHeaders(fetch ?? globalThis.fetch, headers) },
      }),
      ...(fetch && { fetch }),
    });
  }
}

/** A fetch that adds `headers` (the SSE stream's request takes no `requestInit`). */
function withHeaders(base: typeof fetch, headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [key, value] of Object.entries(headers)) merged.set(key, value);
    return base(input, { ...init, headers: merged });
  };
}
