import type { RealtimeEventV1 } from '../v1/realtime-event-v1.js';
import type { RealtimeDtmfReceivedEventV2 } from './realtime-dtmf-v2.js';
import type { RealtimeErrorEventV2 } from './realtime-error-event-v2.js';
import type {
  RealtimeHostedToolApprovalRequestedEventV2,
  RealtimeHostedToolCallEventV2,
} from './realtime-hosted-tools-v2.js';
import type { RealtimeResponseDoneEventV2 } from './realtime-response-done-event-v2.js';
import type { RealtimeResponseStartedEventV2 } from './realtime-response-started-event-v2.js';

/**
 * The closed set of normalized events a connection emits: version 1's, with `response_started` and `response_done`
 * saying `ephemeral` (was `conversation: 'default' | 'none'`) and the end reason `user_turn` (was `turn_detected`), and
 * `dtmf_received`, `hosted_tool_call` and `hosted_tool_approval_requested` (new); `error` may name any version 2 command.
 */
export type RealtimeEventV2 =
  | Exclude<RealtimeEventV1, { type: 'response_started' } | { type: 'response_done' } | { type: 'error' }>
  | RealtimeErrorEventV2
  | RealtimeResponseStartedEventV2
  | RealtimeResponseDoneEventV2
  | RealtimeDtmfReceivedEventV2
  | RealtimeHostedToolCallEventV2
  | RealtimeHostedToolApprovalRequestedEventV2;
