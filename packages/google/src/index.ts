export type {
  KeepaliveOptions,
  SocketEventMap,
  WebSocketConstructor,
  WebSocketLike,
  WebSocketStyle,
} from '@parley/transport';
export { FATAL_CLOSE_CODES, GeminiLiveError, type GeminiLiveErrorCode } from './errors.js';
export { GeminiLiveModel } from './gemini-live-model.js';
export { GeminiLiveConnection } from './live-connection.js';
export type {
  GeminiContextCompression,
  GeminiLiveModelOptions,
  GeminiVertexOptions,
  TokenSource,
} from './options.js';
export * from './wire/live-wire.js';
