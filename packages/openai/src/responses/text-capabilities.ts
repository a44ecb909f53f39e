/**
 * Every flag of a text model's capabilities, on: what OpenAI's models do over the Responses API (which adds its
 * hosted tools) and the Chat Completions model's defaults (which the `capabilities` option may turn off).
 */
export const TEXT_CAPABILITIES = Object.freeze({
  streaming: true,
  tools: true,
  structuredOutput: true,
  parallelToolCalls: true,
} as const);
