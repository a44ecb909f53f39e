export type {
  KeepaliveOptions,
  SocketEventMap,
  WebSocketConstructor,
  WebSocketLike,
  WebSocketStyle,
} from '@parley/transport';
export { OpenAIChatCompletionsModel } from './chat-completions/model.js';
export type { OpenAIChatCompletionsModelOptions } from './chat-completions/options.js';
export { liveCapabilities } from './live/capabilities.js';
export { OpenAILiveError, type OpenAILiveErrorCode } from './live/errors.js';
export type { OpenAILiveConnection } from './live/live-connection.js';
export { OpenAILiveModel } from './live/openai-live-model.js';
export type { OpenAILiveModelOptions } from './live/options.js';
export {
  type CreateLiveWebRTCSessionOptions,
  createLiveWebRTCSession,
  DEFAULT_BROWSER_CLIENT_EVENTS,
  type LiveDataChannelClientEvent,
  type LiveWebRTCSession,
} from './live/webrtc-session.js';
export { OPENAI_REALTIME_CAPABILITIES } from './realtime/capabilities.js';
export { CLIENT_REQUEST_ID_KEY } from './realtime/client-events.js';
export {
  type ClientSecret,
  ClientSecretError,
  type CreateClientSecretOptions,
  createClientSecret,
} from './realtime/client-secret.js';
export type { OpenAIRealtimeConnection } from './realtime/connection.js';
export { OpenAIRealtimeError, type OpenAIRealtimeErrorCode } from './realtime/errors.js';
export { OpenAIRealtimeModel } from './realtime/openai-realtime-model.js';
export type {
  OpenAIRealtimeModelOptions,
  OpenAIRealtimeSessionConfig,
  OpenAITurnDetectionOptions,
} from './realtime/options.js';
export {
  OpenAIAPIError,
  type OpenAIAPIErrorDetails,
  OpenAIAuthenticationError,
  OpenAIBadRequestError,
  OpenAIConnectionError,
  OpenAINotFoundError,
  OpenAIPermissionDeniedError,
  OpenAIRateLimitError,
  OpenAIResponseFailedError,
  OpenAIServerError,
} from './responses/errors.js';
export { OpenAIResponsesModel } from './responses/model.js';
export type {
  OpenAIApiKeyProvider,
  OpenAIClientOptions,
  OpenAIResponsesModelOptions,
} from './responses/options.js';
export { OpenAIProvider, type OpenAIProviderOptions } from './responses/provider.js';
export type {
  WireAudioFormat,
  WireFunctionTool,
  WireMcpTool,
  WireSession,
  WireTool,
  WireToolChoice,
  WireTranscription,
  WireTurnDetection,
} from './shared/realtime-wire.js';
export * from './sip/index.js';
