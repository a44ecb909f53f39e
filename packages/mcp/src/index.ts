export {
  MCPConnectError,
  MCPRequestError,
  MCPRestartLimitError,
  MCPServerClosedError,
  MCPServerError,
  MCPToolError,
} from './errors.js';
export { MCPServer } from './mcp-server.js';
export {
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_REQUEST_TIMEOUT_MS,
  DEFAULT_MCP_RESTART,
  type MCPNeedsApproval,
  type MCPRestartOptions,
  type MCPServerOptions,
  type MCPToolFilter,
} from './options.js';
export {
  MCPHttpServer,
  type MCPServerHttpOptions,
  MCPServerSse,
  MCPServerStdio,
  type MCPServerStdioOptions,
  MCPServerStreamableHttp,
} from './servers.js';
