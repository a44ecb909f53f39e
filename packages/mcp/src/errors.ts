import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Every failure of an MCP server: its `code` says which, `server` names the server. */
export class MCPServerError extends ParleyError {
  static {
    brand(MCPServerError, 'mcp.MCPServerError');
  }

  /** The name of the server (never its URL's credentials, headers or environment). */
  readonly server: string;

  constructor(code: string, server: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.server = server;
  }
}

/** The server could not be started or did not complete the MCP handshake in time. */
export class MCPConnectError extends MCPServerError {
  static {
    brand(MCPConnectError, 'mcp.MCPConnectError');
  }

  constructor(server: string, detail: string, options?: { cause?: unknown }) {
    super(
      'mcp_connect_failed',
      server,
      `MCP server "${server}" could not be connected: ${detail}. Check that it starts (command, URL) and answers the MCP handshake.`,
      options,
    );
  }
}

/**
 * The server went away: it exited or its connection closed while in use (`mcp_server_crashed`), or the app closed
 * it (`mcp_server_closed`). A crashed server is started again on its next use unless `restart: false`.
 */
export class MCPServerClosedError extends MCPServerError {
  static {
    brand(MCPServerClosedError, 'mcp.MCPServerClosedError');
  }

  constructor(server: string, how: 'crashed' | 'closed', options?: { cause?: unknown }) {
    super(
      how === 'crashed' ? 'mcp_server_crashed' : 'mcp_server_closed',
      server,
      how === 'crashed'
        ? `MCP server "${server}" stopped unexpectedly (its process exited or its connection closed).`
        : `MCP server "${server}" is closed; connect it again to use its tools.`,
      options,
    );
  }
}

/**
 * A crashed server was started again `attempts` times in a row without answering a request, so Parley stopped
 * restarting it: its calls fail with this until the app connects it again (`connect()`, or `close()` and use).
 */
export class MCPRestartLimitError extends MCPServerError {
  static {
    brand(MCPRestartLimitError, 'mcp.MCPRestartLimitError');
  }

  /** The restarts made in a row. */
  readonly attempts: number;

  constructor(server: string, attempts: number, options?: { cause?: unknown }) {
    super(
      'mcp_restart_limit',
      server,
      `MCP server "${server}" crashed again after ${attempts} restart(s) in a row; Parley stopped restarting it. Fix the server, then connect() it again.`,
      options,
    );
    this.attempts = attempts;
  }
}

/** A request to the server failed: it answered with an error, or did not answer in time. */
export class MCPRequestError extends MCPServerError {
  static {
    brand(MCPRequestError, 'mcp.MCPRequestError');
  }

  constructor(server: string, what: string, detail: string, options?: { cause?: unknown }) {
    super('mcp_request_failed', server, `MCP server "${server}": ${what} failed: ${detail}`, options);
  }
}

/** A tool of the server reported an error (`isError`); the model sees the server's text. */
export class MCPToolError extends MCPServerError {
  static {
    brand(MCPToolError, 'mcp.MCPToolError');
  }

  /** The tool's name on the server. */
  readonly tool: string;

  constructor(server: string, tool: string, text: string) {
    super('mcp_tool_error', server, text || `Tool "${tool}" of MCP server "${server}" failed.`);
    this.tool = tool;
  }
}
