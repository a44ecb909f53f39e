import type { JsonSchema } from '../../../model.js';

/** A function the realtime model may call. */
export interface RealtimeToolDefinitionV1 {
  name: string;
  description: string;
  parameters: JsonSchema;
}
