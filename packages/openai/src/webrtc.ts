/**
 * `@parley/openai/webrtc`: OpenAI Realtime over WebRTC, for browsers (and Node with an injected peer connection).
 * Browser-safe: nothing here needs Node. Your server mints the call's key with `createClientSecret` (from
 * `@parley/openai`) and may attach a sideband to the call by its id (`new OpenAIRealtimeModel({ callId })`).
 */
export type { DataChannelLike } from '@parley/transport';
export { OpenAIRealtimeError, type OpenAIRealtimeErrorCode } from './realtime/errors.js';
export type { OpenAIRealtimeSessionConfig } from './realtime/options.js';
export {
  OAI_EVENTS_CHANNEL,
  OPENAI_REALTIME_WEBRTC_CAPABILITIES,
  OpenAIRealtimeWebRTCConnection,
  OpenAIRealtimeWebRTCModel,
} from './webrtc/openai-realtime-webrtc-model.js';
export type { OpenAIRealtimeWebRTCModelOptions } from './webrtc/options.js';
export type {
  MediaStreamTrackLike,
  PeerConnectionFactory,
  PeerConnectionLike,
  TrackEventLike,
} from './webrtc/peer-connection.js';
