import type { RealtimeHarness } from '@parley/conformance';
import { REALTIME_SPECIFICATION_VERSION, type RealtimeCapabilities } from '@parley/core';

/** Every capability off. */
export const NO_CAPABILITIES: RealtimeCapabilities = {
  ephemeralResponse: false,
  messageTruncation: false,
  mutableChatContext: false,
  turnDetection: false,
  userTranscription: false,
  audioOutput: false,
  mutableInstructions: false,
  mutableTools: false,
  autoToolResponseGeneration: false,
  responseRequests: false,
  delegation: false,
  contextAppends: false,
  continuousAudio: false,
  contentAcknowledgements: false,
  sessionResumption: false,
  contentDuringResponse: false,
  commitStartsResponse: false,
  responseInstructions: false,
  servicePlayback: false,
  recoverableErrors: false,
  compoundResponses: false,
  toolCallCancellation: false,
};

/**
 * A harness whose backend is never driven (these tests check the kit's own bookkeeping): its model declares
 * `capabilities`, and each disposal is logged as `dispose`.
 */
export function inertHarness(capabilities: Partial<RealtimeCapabilities>, log: string[]): RealtimeHarness {
  const unused = async (): Promise<never> => {
    throw new Error('not used by these scenarios');
  };
  return {
    model: {
      specificationVersion: REALTIME_SPECIFICATION_VERSION,
      provider: 'inert',
      capabilities: { ...NO_CAPABILITIES, ...capabilities },
      connect: unused,
    },
    respondWith: unused,
    finishResponse: unused,
    userStartsSpeaking: unused,
    userStopsSpeaking: unused,
    emitError: unused,
    refuseNextResponse: unused,
    collideNextResponse: unused,
    disconnect: unused,
    commands: async () => [],
    waitForCommand: unused,
    sessionConfig: unused,
    conversation: unused,
    waitForClientClose: unused,
    dispose: async () => {
      log.push('dispose');
    },
  };
}
