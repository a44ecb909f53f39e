/** A JSON Schema object (a tool's parameters), passed to the provider as is. */
export type RealtimeJsonSchemaV1 = { [key: string]: unknown };
