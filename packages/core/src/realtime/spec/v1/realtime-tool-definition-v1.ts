import type { RealtimeJsonSchemaV1 } from './realtime-json-schema-v1.js';

/** A function the realtime model may call. */
export interface RealtimeToolDefinitionV1 {
  name: string;
  description: string;
  parameters: RealtimeJsonSchemaV1;
}
