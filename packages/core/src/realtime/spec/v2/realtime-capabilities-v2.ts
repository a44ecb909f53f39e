import type { RealtimeCapabilitiesV1 } from '../v1/realtime-capabilities-v1.js';
import type { RealtimeHostedToolKindV2 } from './realtime-hosted-tools-v2.js';

/** Version 1's capabilities, and the hosted tools the provider runs. */
export interface RealtimeCapabilitiesV2 extends RealtimeCapabilitiesV1 {
  /**
   * Optional (absent means none). The kinds of tools the provider runs itself (a remote MCP server it calls): the
   * session sends an agent's hosted tools of these kinds in the configuration's `hostedTools`, reads
   * `hosted_tool_call` and `hosted_tool_approval_requested`, and answers approvals with `sendHostedToolApproval`. An
   * agent offering a hosted tool of another kind is refused before connecting.
   */
  hostedTools?: readonly RealtimeHostedToolKindV2[];
}

/** The names of the capability flags (every capability but the list of `hostedTools`). */
export type RealtimeCapabilityV2 = Exclude<keyof RealtimeCapabilitiesV2, 'hostedTools'>;
