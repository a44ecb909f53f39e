import type { RealtimeContextAppendKindV1 } from './realtime-context-append-kind-v1.js';

/** Adds text to the model's context at the current point of its timeline (providers with `contextAppends`). */
export interface RealtimeAppendContextCommandV1 {
  type: 'appendContext';
  kind: RealtimeContextAppendKindV1;
  text: string;
  /** The delegation this answers, if any. */
  delegationId?: string;
  /** Chosen by the session; the provider echoes it on `context_appended` (and on an `error` refusing it). */
  clientRequestId: string;
}
