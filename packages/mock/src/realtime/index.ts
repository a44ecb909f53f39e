export {
  MockRealtimeConnection,
  type UserStartsSpeakingOptions,
  type UserStopsSpeakingOptions,
} from './mock-realtime-connection.js';
export {
  ALL_REALTIME_CAPABILITIES,
  DEFAULT_MOCK_REALTIME_CAPABILITIES,
  MockConnectError,
  MockRealtimeModel,
  type MockRealtimeModelOptions,
} from './mock-realtime-model.js';
export {
  type MockAudio,
  type MockReceivedInput,
  type MockResponseInput,
  type MockResponseScript,
  type MockResponseStep,
  mockPcm16,
} from './script.js';
