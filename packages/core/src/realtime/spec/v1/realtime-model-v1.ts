import type { RealtimeCapabilitiesV1 } from './realtime-capabilities-v1.js';
import type { RealtimeConnectOptionsV1 } from './realtime-connect-options-v1.js';
import type { RealtimeConnectionV1 } from './realtime-connection-v1.js';

/** The specification version a {@link RealtimeModelV1} declares. */
export const REALTIME_SPECIFICATION_VERSION_V1 = 'parley.realtime.v1' as const;

/** A realtime provider: a factory of live connections (version 1 of the realtime model specification). */
export interface RealtimeModelV1 {
  readonly specificationVersion: typeof REALTIME_SPECIFICATION_VERSION_V1;
  /** A short provider name, e.g. `openai`, `azure`, `mock`. */
  readonly provider: string;
  /** Optional: the provider's id of the model it connects to (e.g. for traces and logs), when it has one. */
  readonly modelId?: string;
  readonly capabilities: RealtimeCapabilitiesV1;
  connect(options: RealtimeConnectOptionsV1): Promise<RealtimeConnectionV1>;
}
