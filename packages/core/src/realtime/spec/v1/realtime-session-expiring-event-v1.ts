/**
 * The provider says when it will end the session: at `expiresAt` (wall-clock epoch milliseconds). Emitted when
 * the provider states or moves its limit after `connect` resolved (what it said before is
 * {@link RealtimeConnectionV1.expiresAt}); the latest one counts. The session recycles the connection between
 * turns shortly before.
 */
export interface RealtimeSessionExpiringEventV1 {
  type: 'session_expiring';
  expiresAt: number;
}
