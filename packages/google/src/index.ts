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
export {
  durationMs,
  durationString,
  GEMINI_AUDIO_FORMATS,
  GEMINI_INPUT_MIME_TYPE,
  GEMINI_INPUT_SAMPLE_RATE,
  GEMINI_OUTPUT_SAMPLE_RATE,
  type GeminiAutomaticActivityDetection,
  type GeminiBlob,
  type GeminiClientContent,
  type GeminiClientMessage,
  type GeminiContent,
  type GeminiContextWindowCompression,
  type GeminiFunctionCall,
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponse,
  type GeminiGenerationConfig,
  type GeminiModalityTokenCount,
  type GeminiPart,
  type GeminiRealtimeInput,
  type GeminiRealtimeInputConfig,
  type GeminiServerContent,
  type GeminiServerMessage,
  type GeminiSessionResumptionUpdate,
  type GeminiSetup,
  type GeminiTool,
  type GeminiToolResponse,
  type GeminiTranscription,
  type GeminiUsageMetadata,
} from './wire/live-wire.js';
