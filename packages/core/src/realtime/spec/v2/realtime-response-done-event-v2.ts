import type { RealtimeResponseStatusV1 } from '../v1/realtime-response-status-v1.js';
import type { RealtimeUsageV1 } from '../v1/realtime-usage-v1.js';
import type { RealtimeResponseEndReasonV2 } from './realtime-response-end-reason-v2.js';

/** A response ended. */
export interface RealtimeResponseDoneEventV2 {
  type: 'response_done';
  responseId: string;
  status: RealtimeResponseStatusV1;
  /** `true`: generated outside the conversation (a `createResponse` with `ephemeral: true`). */
  ephemeral: boolean;
  clientRequestId?: string;
  usage?: RealtimeUsageV1;
  /** Why it ended, when not `completed` and the provider says. */
  reason?: RealtimeResponseEndReasonV2;
  /** With `reason: 'provider_error'`: the provider's error code. */
  errorCode?: string;
}
