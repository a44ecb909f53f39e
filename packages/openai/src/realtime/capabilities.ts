import type { RealtimeCapabilities } from '@parley/core';

/**
 * What the public OpenAI Realtime endpoint (GA, WebSocket) supports. The follow-up response after a tool output
 * is never automatic: the client asks for it.
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
});
