import type { ModelCapabilities } from '@parley/core';
import { invalidOption, optionKeys } from '@parley/core/internal';
import { CLIENT_OPTION_KEYS, type OpenAIClientOptions } from '../responses/options.js';
import { TEXT_CAPABILITIES } from '../responses/text-capabilities.js';

/** Options of {@link OpenAIChatCompletionsModel}. */
export interface OpenAIChatCompletionsModelOptions extends OpenAIClientOptions {
  /** The model name as the server knows it, e.g. `gpt-4.1-mini`, `llama3.2` (Ollama), `Qwen/Qwen3-8B` (vLLM). */
  model: string;
  /**
   * What the server and model support, where it differs from the defaults (all `true`): e.g.
   * `{ structuredOutput: false }` for a server without `response_format: json_schema`, `{ tools: false }` for a
   * model served without function calling.
   */
  capabilities?: Partial<Omit<ModelCapabilities, 'hostedTools'>>;
}

/** The option keys of {@link OpenAIChatCompletionsModelOptions}. */
export const CHAT_MODEL_OPTIONS = optionKeys<OpenAIChatCompletionsModelOptions>(
  'OpenAIChatCompletionsModelOptions',
  { ...CLIENT_OPTION_KEYS, model: true, capabilities: true },
);
const CAPABILITY_KEYS = optionKeys<Omit<ModelCapabilities, 'hostedTools'>>(
  'OpenAIChatCompletionsModelOptions',
  TEXT_CAPABILITIES,
);

/** The declared capabilities: all `true`, then the overrides (checked: known keys, booleans). */
export function resolveChatCapabilities(overrides: unknown): ModelCapabilities {
  if (overrides === undefined) overrides = {};
  if (typeof overrides !== 'object' || overrides === null)
    throw invalidOption('capabilities must be an object of booleans.');
  CAPABILITY_KEYS.check(overrides as object, 'capabilities');
  for (const [name, value] of Object.entries(overrides as object)) {
    if (typeof value !== 'boolean') throw invalidOption(`capabilities.${name} must be true or false.`);
  }
  return Object.freeze({ ...TEXT_CAPABILITIES, ...(overrides as Partial<ModelCapabilities>) });
}
