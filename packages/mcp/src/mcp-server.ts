import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AnyFunctionTool, type Clock, delay, systemClock, type ToolSource } from '@parley/core';
import { errorText, log } from '@parley/core/internal';
import {
  MCPConnectError,
  MCPRequestError,
  MCPRestartLimitError,
  MCPServerClosedError,
  MCPServerError,
  MCPToolError,
} from './errors.js';
import { type McpToolInfo, mcpTools } from './mcp-tools.js';
import {
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_REQUEST_TIMEOUT_MS,
  type MCPServerOptions,
  restartPolicy,
} from './options.js';
import { toolResultText } from './tool-output.js';

const CLIENT_INFO = { name: 'parley', version: '0.1.0' };

/** A live connection: the SDK client and the transport under it. */
interface Connection {
  client: Client;
  /** Set when the connection ended: by `close()` (`closing`), or by itself (a crash). */
  ended: boolean;
}

/**
 * An MCP server whose tools Parley agents use (`new Agent({ toolSources: [server] })`), for the Runner and the
 * RealtimeSession alike. Subclasses say how to reach it (stdio, Streamable HTTP, SSE).
 *
 * Ownership: a server the app connects (`await server.connect()`, best with `await using`) stays up until the app
 * closes it. Otherwise the runs and sessions that use it start it on first use and the last of them to end closes
 * it. `close()` is idempotent and bounded. A server that exits or drops its connection while in use surfaces an
 * `MCPServerClosedError` (`mcp_server_crashed`) in the calls it cut, and is started again on its next use (unless
 * `restart: false`), after a backoff that doubles with each restart in a row; after `restart.maxAttempts` restarts
 * in a row without one request answered, its calls fail with `MCPRestartLimitError`. Its tool list is cached until the server announces `notifications/tools/list_changed`.
 */
export abstract class MCPServer<TContext = unknown> implements ToolSource<TContext>, AsyncDisposable {
  /** See {@link MCPServerOptions.name}. */
  readonly name: string;
  readonly #options: MCPServerOptions<TContext>;
  #connection: Connection | undefined;
  #connecting: Promise<Connection> | undefined;
  /** The app connected the server itself: it stays up until the app closes it. */
  #appOwned = false;
  #holders = 0;
  /** Why the last connection ended unexpectedly, when it did. */
  #crash: MCPServerClosedError | undefined;
  /** Restarts in a row since a request was last answered. */
  #restarts = 0;
  /** Set once the restarts in a row reached the limit; cleared when the app connects the server again. */
  #gaveUp: MCPRestartLimitError | undefined;
  /** Aborts the backoff wait of a restart (by `close()`). */
  #backoff: AbortController | undefined;
  readonly #clock: Clock;
  #tools: AnyFunctionTool<TContext>[] = [];
  /** Bumped by every list change; a listing that started before one is fetched again. */
  #listVersion = 0;
  #listedVersion = -1;
  #listing: Promise<AnyFunctionTool<TContext>[]> | undefined;
  readonly #listeners = new Set<() => void>();

  protected constructor(name: string, options: MCPServerOptions<TContext>) {
    this.name = name;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Makes the transport of one connection. Internal: it speaks the MCP SDK's types, which need the DOM lib, so it is
   * kept out of the published declarations.
   * @internal
   */
  protected abstract createTransport(): Transport;

  /** Whether the server is connected now. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.ended;
  }

  /** The tools as last listed (none before the first listing). */
  get cachedTools(): readonly AnyFunctionTool<TContext>[] {
    return this.#tools;
  }

  /** Connects the server and keeps it up until {@link MCPServer.close}: the app owns it. */
  async connect(signal?: AbortSignal): Promise<void> {
    this.#appOwned = true;
    if (this.#gaveUp) {
      // The app connects it again on purpose: start at once, with a fresh restart budget.
      this.#gaveUp = undefined;
      this.#crash = undefined;
      this.#restarts = 0;
    }
    await this.#connected(signal);
  }

  /** For runs and sessions: one starts using the server (see {@link ToolSource.acquire}). */
  async acquire(signal?: AbortSignal): Promise<void> {
    this.#holders += 1;
    try {
      await this.#connected(signal);
    } catch (error) {
      this.#holders -= 1;
      throw error;
    }
  }

  /** For runs and sessions: one stops using the server; the last one closes a server it started. */
  async release(): Promise<void> {
    this.#holders = Math.max(0, this.#holders - 1);
    if (this.#holders === 0 && !this.#appOwned) await this.#disconnect();
  }

  /** Closes the connection (the child process, the HTTP session). Idempotent; bounded. */
  async close(): Promise<void> {
    this.#appOwned = false;
    await this.#disconnect();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Calls `listener` when the server announced that its tool list changed. */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The server's tools as Parley tools, filtered; listed again only after the server announced a change. */
  async tools(signal?: AbortSignal): Promise<readonly AnyFunctionTool<TContext>[]> {
    if (this.#listedVersion === this.#listVersion && this.connected) return this.#tools;
    this.#listing ??= this.#list(signal).finally(() => {
      this.#listing = undefined;
    });
    return await this.#listing;
  }

  async #list(signal: AbortSignal | undefined): Promise<AnyFunctionTool<TContext>[]> {
    for (;;) {
      const version = this.#listVersion;
      const { client } = await this.#connected(signal, true);
      const found: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.#request('listing tools', () =>
          client.listTools(cursor === undefined ? {} : { cursor }, {
            signal,
            timeout: this.#options.requestTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
          }),
        );
        found.push(...(page.tools as McpToolInfo[]));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      if (version !== this.#listVersion) continue;
      this.#tools = mcpTools(found, this.name, this.#options, (tool, input, toolSignal) =>
        this.#callTool(tool, input, toolSignal),
      );
      this.#listedVersion = version;
      return this.#tools;
    }
  }

  async #callTool(
    serverToolName: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string> {
    const { client } = await this.#connected(signal, true);
    const result = await this.#request(`calling tool "${serverToolName}"`, () =>
      client.callTool({ name: serverToolName, arguments: input }, undefined, {
        signal,
        // A backstop past the tool's own timeout, which reports the timeout the Parley way.
        timeout: (this.#options.timeoutMs ?? DEFAULT_MCP_REQUEST_TIMEOUT_MS) + 1_000,
      }),
    );
    const text = toolResultText(result as { content?: unknown; structuredContent?: unknown });
    if (result.isError === true) throw new MCPToolError(this.name, serverToolName, text);
    return text;
  }

  /** Runs one request, turning the SDK's failures into typed errors (a closed connection into a crash). */
  async #request<T>(what: string, send: () => Promise<T>): Promise<T> {
    try {
      const answer = await send();
      this.#restarts = 0;
      return answer;
    } catch (error) {
      if (error instanceof MCPServerError) throw error;
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        throw this.#crash ?? new MCPServerClosedError(this.name, 'crashed', { cause: error });
      }
      if ((error as { name?: string } | null)?.name === 'AbortError') throw error;
      throw new MCPRequestError(this.name, what, errorText(error), { cause: error });
    }
  }

  /**
   * The live connection, connecting first when there is none. `inUse` (a call or a listing, not a holder or the
   * app starting it): a crashed server is started again only with `restart` (the default), and a server nobody
   * holds is not started (nobody would close it).
   */
  async #connected(signal: AbortSignal | undefined, inUse = false): Promise<Connection> {
    const current = this.#connection;
    if (current && !current.ended) return current;
    if (this.#gaveUp) throw this.#gaveUp;
    if (inUse) {
      if (this.#crash && this.#options.restart === false) throw this.#crash;
      if (!this.#crash && this.#holders === 0 && !this.#appOwned) {
        throw new MCPServerClosedError(this.name, 'closed');
      }
    }
    const crash = this.#crash;
    this.#connecting ??= (crash ? this.#restart(crash) : this.#open()).finally(() => {
      this.#connecting = undefined;
    });
    const connecting = this.#connecting;
    if (!signal) return await connecting;
    signal.throwIfAborted();
    return await new Promise<Connection>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      connecting.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * Starts a crashed server again after its backoff (`initialDelayMs`, doubled for each restart in a row, at most
   * `maxDelayMs`), or gives up with {@link MCPRestartLimitError} once `maxAttempts` restarts in a row got no answer.
   */
  async #restart(crash: MCPServerClosedError): Promise<Connection> {
    const policy = restartPolicy(this.#options.restart);
    if (!policy) return await this.#open();
    if (this.#restarts >= policy.maxAttempts) {
      this.#gaveUp = new MCPRestartLimitError(this.name, this.#restarts, { cause: crash });
      log.error(`MCP server "${this.name}" keeps crashing; it is not restarted again.`, {
        event: 'mcp_server_restart_limit',
        server: this.name,
        attempts: this.#restarts,
      });
      throw this.#gaveUp;
    }
    const wait = Math.min(policy.initialDelayMs * 2 ** this.#restarts, policy.maxDelayMs);
    this.#restarts += 1;
    const backoff = new AbortController();
    this.#backoff = backoff;
    try {
      await delay(this.#clock, wait, backoff.signal);
    } finally {
      if (this.#backoff === backoff) this.#backoff = undefined;
    }
    log.info(`Restarting MCP server "${this.name}" (restart ${this.#restarts} in a row).`, {
      event: 'mcp_server_restarting',
      server: this.name,
      attempt: this.#restarts,
      delayMs: wait,
    });
    return await this.#open();
  }

  async #open(): Promise<Connection> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const connection: Connection = { client, ended: false };
    client.onclose = () => {
      if (connection.ended) return;
      connection.ended = true;
      this.#crash = new MCPServerClosedError(this.name, 'crashed');
      this.#listVersion += 1;
      log.warn(`MCP server "${this.name}" stopped unexpectedly.`, {
        event: 'mcp_server_crashed',
        server: this.name,
        restart: this.#options.restart !== false,
      });
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#listVersion += 1;
      for (const listener of [...this.#listeners]) listener();
    });
    let transport: Transport;
    try {
      transport = this.createTransport();
      await client.connect(transport, {
        timeout: this.#options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
      });
    } catch (error) {
      connection.ended = true;
      await client.close().catch(() => {});
      throw new MCPConnectError(this.name, errorText(error), { cause: error });
    }
    this.#connection = connection;
    this.#crash = undefined;
    return connection;
  }

  async #disconnect(): Promise<void> {
    this.#backoff?.abort(new MCPServerClosedError(this.name, 'closed'));
    this.#restarts = 0;
    this.#gaveUp = undefined;
    const connecting = this.#connecting;
    if (connecting) await connecting.catch(() => {});
    const connection = this.#connection;
    this.#connection = undefined;
    this.#crash = undefined;
    if (!connection || connection.ended) return;
    connection.ended = true;
    await connection.client.close().catch((error: unknown) => {
      log.warn(`MCP server "${this.name}" failed to close cleanly.`, {
        event: 'mcp_server_close_failed',
        server: this.name,
        error: errorText(error),
      });
    });
  }
}
