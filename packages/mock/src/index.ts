export { flushMicrotasks, ManualClock } from './manual-clock.js';
export type {
  FailNextSendOptions,
  MockRealtimeConnection,
  UserStartsSpeakingOptions,
  UserStopsSpeakingOptions,
} from './realtime/mock-realtime-connection.js';
export {
  ALL_REALTIME_CAPABILITIES,
  DEFAULT_MOCK_REALTIME_CAPABILITIES,
  MockConnectError,
  MockRealtimeModel,
  type MockRealtimeModelOptions,
} from './realtime/mock-realtime-model.js';
export {
  type MockAudio,
  type MockReceivedInput,
  type MockResponseInput,
  type MockResponseScript,
  type MockResponseStep,
  mockPcm16,
} from './realtime/script.js';
export type { MockOutputOptions } from './text/builders.js';
export { MockScriptError, type MockScriptErrorCode } from './text/errors.js';
export { type MockCall, type MockCallStatus, MockModel, type MockModelOptions } from './text/mock-model.js';
export { MockModelProvider, type MockModelProviderOptions } from './text/mock-model-provider.js';
export type {
  MockErrorResponse,
  MockFunctionCall,
  MockOutputItem,
  MockOutputResponse,
  MockResponse,
  MockScriptEntry,
} from './text/script.js';
