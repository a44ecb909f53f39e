import type { RealtimeToolChoiceV1 } from '../v1/realtime-tool-choice-v1.js';
import type { RealtimeToolDefinitionV1 } from '../v1/realtime-tool-definition-v1.js';

/** Parameters of one response request. */
export interface RealtimeCreateResponseCommandV2 {
  type: 'createResponse';
  /** Chosen by the session; the provider echoes it on `response_started` (and on an `error` refusing it). */
  clientRequestId: string;
  /**
   * `false`: the response joins the conversation. `true`: an ephemeral response, generated outside the conversation
   * (nothing is added to it); only sent where the provider declares `ephemeralResponse`.
   */
  ephemeral: boolean;
  instructions?: string;
  tools?: RealtimeToolDefinitionV1[];
  toolChoice?: RealtimeToolChoiceV1;
}
