import type { RealtimeCommandV1 } from '../v1/realtime-command-v1.js';
import type { RealtimeCreateResponseCommandV2 } from './realtime-create-response-command-v2.js';
import type { RealtimeTruncateItemCommandV2 } from './realtime-truncate-item-command-v2.js';

/**
 * The closed set of commands a session sends to a connection: version 1's, with `createResponse` saying `ephemeral`
 * (was `conversation: 'default' | 'none'`) and `truncateItem` saying `heardMs` (was `audioEndMs`).
 */
export type RealtimeCommandV2 =
  | Exclude<RealtimeCommandV1, { type: 'createResponse' } | { type: 'truncateItem' }>
  | RealtimeCreateResponseCommandV2
  | RealtimeTruncateItemCommandV2;
