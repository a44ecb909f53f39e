export * from '../playback/index.js';
export type { PendingApproval } from './approvals.js';
export * from './errors.js';
export type * from './events.js';
export type * from './history-item.js';
export type { RealtimeSessionOptions, RealtimeSessionSettings } from './options.js';
export { SessionPlayback } from './playback-control.js';
export type { RealtimeReconnectOptions } from './reconnect-options.js';
export type { ReplyHandle, ReplyResult } from './reply-handle.js';
export {
  type FollowUpReason,
  MAX_ERROR_FOLLOW_UPS,
  type PendingResponseRequest,
  ResponseCoordinator,
  type ResponseCoordinatorHooks,
  type ResponseCoordinatorOptions,
  type ResponseRequestParams,
  type ResponseRequestReason,
  type ResponseStartInfo,
} from './response-coordinator.js';
export { type GenerateReplyOptions, RealtimeSession } from './session.js';
