import type { RealtimeContextAppendKindV1 } from './realtime-context-append-kind-v1.js';

/** An `appendContext` reached the model, at this span of the provider's timeline (proof of injection). */
export interface RealtimeContextAppendedEventV1 {
  type: 'context_appended';
  kind: RealtimeContextAppendKindV1;
  startMs: number;
  endMs: number;
  /** The `clientRequestId` of the `appendContext` it acknowledges, when the provider echoes it. */
  clientRequestId?: string;
}
