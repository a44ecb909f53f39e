import type { RealtimeSessionConfigV1 } from '../v1/realtime-session-config-v1.js';
import type { RealtimeHostedToolV2 } from './realtime-hosted-tools-v2.js';

/** Version 1's session configuration, and the hosted tools offered beside the function tools. */
export interface RealtimeSessionConfigV2 extends RealtimeSessionConfigV1 {
  /**
   * Tools the provider runs itself (providers that declare their kinds in `capabilities.hostedTools`); `[]` removes
   * them. The session sends it with `tools` whenever either changes, so a provider with one tool list may build it
   * from both.
   */
  hostedTools?: RealtimeHostedToolV2[];
}
