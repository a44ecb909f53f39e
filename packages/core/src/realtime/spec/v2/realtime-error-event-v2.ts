import type { RealtimeEventV1 } from '../v1/realtime-event-v1.js';
import type { RealtimeCommandV2 } from './realtime-command-v2.js';

/** Version 1's `error` event, naming any version 2 command it refuses (`sendDtmf` included). */
export type RealtimeErrorEventV2 = Omit<Extract<RealtimeEventV1, { type: 'error' }>, 'commandType'> & {
  /**
   * The command this error refuses, when the provider says. The session reads `createResponse`: a refused
   * response request releases its queue even when the provider does not name the request.
   */
  commandType?: RealtimeCommandV2['type'];
};
