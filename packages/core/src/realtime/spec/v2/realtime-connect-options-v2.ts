import type { RealtimeConnectOptionsV1 } from '../v1/realtime-connect-options-v1.js';
import type { RealtimeSessionConfigV2 } from './realtime-session-config-v2.js';

/** Options of {@link RealtimeModelV2.connect}: version 1's, with a version 2 configuration. */
export interface RealtimeConnectOptionsV2 extends Omit<RealtimeConnectOptionsV1, 'config'> {
  /** The initial session configuration, applied before `connect` resolves. */
  config: RealtimeSessionConfigV2;
}
