export {
  MCPConnectError,
  MCPRequestError,
  MCPServerClosedError,
  MCPServerError,
  MCPToolError,
} from './errors.js';
export { MCPServer } from './mcp-server.js';
export {
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_REQUEST_TIMEOUT_MS,
  type MCPNeedsApproval,
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
