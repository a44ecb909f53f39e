import type { RealtimeCapabilities } from '@parley/core';
import type { ResolvedGeminiOptions } from './options.js';

/**
 * What Gemini Live offers through the seam. No out-of-band responses, no truncation, no deletion (its context only
 * grows). It detects the user's turns and transcribes them, speaks, answers a tool response by itself, and takes
 * turns the app writes (`clientContent`) with a request to answer them. It acknowledges no content, and client
 * content interrupts the model's turn. The end of the user's activity starts the answer by itself. Instructions for
 * one response can only join the context. Instructions and tools change only with a new `setup`, which the adapter
 * sends by resuming the session; resumption handles are the session's resume tokens: all only where session
 * resumption is on. It has no error message (every failure closes the connection: no recoverable errors), and a
 * model turn is one message, or tool calls that end it (no compound responses). It withdraws calls
 * (`toolCallCancellation`).
 */
export function geminiCapabilities(options: ResolvedGeminiOptions): RealtimeCapabilities {
  return {
    ephemeralResponse: false,
    messageTruncation: false,
    mutableChatContext: false,
    turnDetection: true,
    userTranscription: true,
    audioOutput: true,
    mutableInstructions: options.sessionResumption,
    mutableTools: options.sessionResumption,
    autoToolResponseGeneration: true,
    responseRequests: true,
    contentAcknowledgements: false,
    contentDuringResponse: false,
    commitStartsResponse: true,
    responseInstructions: false,
    sessionResumption: options.sessionResumption,
    recoverableErrors: false,
    compoundResponses: false,
    toolCallCancellation: true,
  };
}
