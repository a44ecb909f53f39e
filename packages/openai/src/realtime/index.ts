export { OPENAI_REALTIME_CAPABILITIES } from './capabilities.js';
export { CLIENT_REQUEST_ID_KEY } from './client-events.js';
export {
  type ClientSecret,
  ClientSecretError,
  type CreateClientSecretOptions,
  createClientSecret,
} from './client-secret.js';
export { OpenAIRealtimeConnection } from './connection.js';
export { OpenAIRealtimeError, type OpenAIRealtimeErrorCode } from './errors.js';
export { OpenAIRealtimeModel } from './openai-realtime-model.js';
export type {
  OpenAIRealtimeModelOptions,
  OpenAIRealtimeSessionConfig,
  OpenAITurnDetectionOptions,
} from './options.js';
export type { WebSocketConstructor, WebSocketLike, WebSocketStyle } from './socket-types.js';
