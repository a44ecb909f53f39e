import type { RealtimeCapabilities } from '@parley/core';
import type { ResolvedGeminiOptions } from './options.js';

/**
 * What Gemini Live offers through the seam. No out-of-band responses, no truncation, no deletion (its context only
 * grows). It detects the user's turns and transcribes them, speaks, answers a tool response by itself, and takes
 * turns the app writes (`clientContent`) with a request to answer them. Instructions and tools change only with a
 * new `setup`, which the adapter sends by resuming the session: so only where session resumption is on.
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
  };
}
