import type { RealtimeCommandV1 } from '../v1/realtime-command-v1.js';
import type { RealtimeCreateResponseCommandV2 } from './realtime-create-response-command-v2.js';
import type { RealtimeSendDtmfCommandV2 } from './realtime-dtmf-v2.js';
import type { RealtimeSendHostedToolApprovalCommandV2 } from './realtime-hosted-tools-v2.js';
import type { RealtimeSessionConfigV2 } from './realtime-session-config-v2.js';
import type { RealtimeTruncateItemCommandV2 } from './realtime-truncate-item-command-v2.js';

/**
 * The closed set of commands a session sends to a connection: version 1's, with `createResponse` saying `ephemeral`
 * (was `conversation: 'default' | 'none'`) and `truncateItem` saying `heardMs` (was `audioEndMs`), `updateSession` taking a
 * version 2 configuration (hosted tools), and `sendDtmf` and `sendHostedToolApproval` (new).
 */
export type RealtimeCommandV2 =
  | Exclude<
      RealtimeCommandV1,
      { type: 'createResponse' } | { type: 'truncateItem' } | { type: 'updateSession' }
    >
  | { type: 'updateSession'; config: RealtimeSessionConfigV2 }
  | RealtimeCreateResponseCommandV2
  | RealtimeTruncateItemCommandV2
  | RealtimeSendDtmfCommandV2
  | RealtimeSendHostedToolApprovalCommandV2;
