import type { HarnessResponse, RealtimeHarness } from '@parley/conformance';
import type { RealtimeCapabilities, RealtimeCommand } from '@parley/core';
import {
  ALL_REALTIME_CAPABILITIES,
  ManualClock,
  MockRealtimeModel,
  type MockResponseScript,
} from '@parley/mock';

/** `announceEarly`: every output item is announced (`item_added`) before the response's output links it. */
function toScript(response: HarnessResponse, announceEarly = false): MockResponseScript {
  return {
    output: [
      ...response.output.map((o) =>
        o.type === 'message'
          ? {
              type: 'message' as const,
              text: o.text,
              ...(announceEarly && { announceEarly }),
              ...(o.audioMs !== undefined && { audio: { ms: o.audioMs } }),
              ...(o.transcriptDeltas !== undefined && { transcriptDeltas: o.transcriptDeltas }),
              // The mock's audio comes in 100 ms chunks.
              ...(o.holdAfterMs !== undefined && {
                pauseAfterChunks: Math.max(1, Math.ceil(o.holdAfterMs / 100)),
              }),
            }
          : { ...o, ...(announceEarly && { announceEarly }) },
      ),
      ...(response.hold ? [{ type: 'pause' as const }] : []),
    ],
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what()}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The conformance harness for {@link MockRealtimeModel}: the mock is its own backend. */
export function createMockHarness(capabilities: Partial<RealtimeCapabilities> = {}): RealtimeHarness {
  // The suite runs with every capability on (autoToolResponseGeneration is off by default), then each one off.
  const model = new MockRealtimeModel({ capabilities: { ...ALL_REALTIME_CAPABILITIES, ...capabilities } });
  return {
    model,
    sessionClock: new ManualClock(),
    respondWith: async (...responses) => {
      model.respondWith(...responses.map((response) => toScript(response)));
    },
    respondAnnouncingItemsEarly: async (...responses) => {
      model.respondWith(...responses.map((response) => toScript(response, true)));
    },
    finishResponse: async () => model.connection.resume(),
    userStartsSpeaking: async () => model.connection.userStartsSpeaking(),
    userStopsSpeaking: async (options = {}) => model.connection.userStopsSpeaking(options),
    cutMidTranscription: async (partial) => {
      const connection = model.connection;
      const itemId = 'item_cut_mid_transcription';
      connection.emit({ type: 'input_audio_committed', itemId });
      connection.emit({
        type: 'item_added',
        item: { type: 'message', itemId, role: 'user', content: [{ type: 'audio' }], status: 'completed' },
      });
      connection.emit({ type: 'input_transcription', itemId, text: partial, final: false });
      connection.disconnect('harness_disconnect');
    },
    emitError: async (error) => model.connection.emitError(error),
    refuseNextResponse: async (error) => model.connection.refuseNextResponse(error.code, error.message),
    // The mock refuses a colliding request as the OpenAI Realtime service does, naming no request.
    collideNextResponse: async () =>
      model.connection.refuseNextResponse(
        'conversation_already_has_active_response',
        'Conversation already has an active response in progress.',
        { echoRequestId: false },
      ),
    disconnect: async () => model.connection.disconnect('harness_disconnect'),
    failFatally: async () => {
      model.connection.failFatally({ code: 'quota_exhausted', message: 'The quota is used up.' });
      return { code: 'quota_exhausted' };
    },
    cancelToolCall: async (callId) => model.connection.cancelToolCalls(callId),
    connectionStopsSilently: async () => model.connection.stopSilently(),
    failNextWrite: async (commandType) => model.connection.failNextSend(commandType, { failure: 'write' }),
    commands: async () => model.commands,
    waitForCommand: (match, options = {}) => {
      const predicate = typeof match === 'string' ? (c: RealtimeCommand) => c.type === match : match;
      const ms = options.timeoutMs ?? 2000;
      return withTimeout(
        model.waitForCommands(predicate, options.count ?? 1),
        ms,
        () =>
          `${options.count ?? 1} × ${String(match)}; received ${model.commands.map((c) => c.type).join(', ')}`,
      );
    },
    sessionConfig: async () => model.connection.config,
    conversation: async () => model.connection.conversation,
    waitForClientClose: (options = {}) =>
      withTimeout(
        model.connection.whenClosedByClient(),
        options.timeoutMs ?? 2000,
        () => 'the client to close',
      ),
    dispose: async () => {},
  };
}
