/**
 * The provider ended the session at its time limit; the connection cannot be used any more (it closes next).
 * The session reconnects with reason `session_expired` where it may.
 */
export interface RealtimeSessionExpiredEventV1 {
  type: 'session_expired';
  message: string;
}
