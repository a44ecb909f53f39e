import type { RealtimeSessionConfigV1 } from './realtime-session-config-v1.js';

/** Options of {@link RealtimeModelV1.connect}. */
export interface RealtimeConnectOptionsV1 {
  /** The initial session configuration, applied before `connect` resolves. */
  config: RealtimeSessionConfigV1;
  signal?: AbortSignal;
  /** Also emit each of the provider's original events as a `raw_event` (off by default: it costs a copy per event). */
  rawEvents?: boolean;
}
