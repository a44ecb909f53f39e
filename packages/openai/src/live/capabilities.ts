import type { RealtimeCapabilities } from '@parley/core';

/**
 * What GPT-Live offers through the seam: no out-of-band responses, no truncation, append-only context, turn-taking
 * inside the model (no speech events: the user's first words stand for one), transcripts, audio only, fixed instructions, no
 * response requests (the model takes its turns by itself); delegation, context appends and a
 * continuous audio track. Tools exist only on a Responses backend; the connection continues it (`response.create`)
 * by itself once every call has its output, so the session never requests a follow-up.
 */
export function liveCapabilities(delegation: 'client' | 'responses'): RealtimeCapabilities {
  return {
    ephemeralResponse: false,
    messageTruncation: false,
    mutableChatContext: false,
    turnDetection: false,
    userTranscription: true,
    audioOutput: true,
    mutableInstructions: false,
    mutableTools: delegation === 'responses',
    autoToolResponseGeneration: delegation === 'responses',
    responseRequests: false,
    delegation: delegation === 'client',
    contextAppends: true,
    continuousAudio: true,
  };
}
