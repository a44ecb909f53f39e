import type { RealtimeCapabilities } from '@parley/core';

/**
 * What the public OpenAI Realtime endpoint (GA, WebSocket) supports. The follow-up response after a tool output
 * (or an MCP approval decision) is never automatic: the client asks for it. Remote MCP servers are hosted tools.
 */
export const OPENAI_REALTIME_CAPABILITIES: Readonly<RealtimeCapabilities> = Object.freeze({
  ephemeralResponse: true,
  messageTruncation: true,
  mutableChatContext: true,
  turnDetection: true,
  userTranscription: true,
  audioOutput: true,
  mutableInstructions: true,
  mutableTools: true,
  autoToolResponseGeneration: false,
  responseRequests: true,
  hostedTools: Object.freeze(['mcp'] as const),
});
