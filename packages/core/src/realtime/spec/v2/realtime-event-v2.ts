import type { RealtimeEventV1 } from '../v1/realtime-event-v1.js';
import type { RealtimeResponseDoneEventV2 } from './realtime-response-done-event-v2.js';
import type { RealtimeResponseStartedEventV2 } from './realtime-response-started-event-v2.js';

/**
 * The closed set of normalized events a connection emits: version 1's, with `response_started` and `response_done`
 * saying `ephemeral` (was `conversation: 'default' | 'none'`) and the end reason `user_turn` (was `turn_detected`).
 */
export type RealtimeEventV2 =
  | Exclude<RealtimeEventV1, { type: 'response_started' } | { type: 'response_done' }>
  | RealtimeResponseStartedEventV2
  | RealtimeResponseDoneEventV2;
