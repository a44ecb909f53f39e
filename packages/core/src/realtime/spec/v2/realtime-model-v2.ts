import type { RealtimeCapabilitiesV2 } from './realtime-capabilities-v2.js';
import type { RealtimeConnectOptionsV2 } from './realtime-connect-options-v2.js';
import type { RealtimeConnectionV2 } from './realtime-connection-v2.js';

/** The specification version a {@link RealtimeModelV2} declares. */
export const REALTIME_SPECIFICATION_VERSION_V2 = 'parley.realtime.v2' as const;

/** A realtime provider: a factory of live connections (version 2 of the realtime model specification). */
export interface RealtimeModelV2 {
  readonly specificationVersion: typeof REALTIME_SPECIFICATION_VERSION_V2;
  /** A short provider name, e.g. `openai`, `azure`, `mock`. */
  readonly provider: string;
  /** Optional: the provider's id of the model it connects to (e.g. for traces and logs), when it has one. */
  readonly modelId?: string;
  readonly capabilities: RealtimeCapabilitiesV2;
  connect(options: RealtimeConnectOptionsV2): Promise<RealtimeConnectionV2>;
}
