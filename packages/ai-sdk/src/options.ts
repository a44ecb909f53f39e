import type { ModelCapabilities } from '@parley/core';
import { invalidOption, optionKeys } from '@parley/core/internal';

/** Options of {@link AISdkModel}. */
export interface AISdkModelOptions {
  /**
   * What the wrapped model supports, where it differs from what `AISdkModel` reads off it (see
   * {@link AISdkModel.capabilities}); e.g. `{ tools: false }` for a model its provider serves without function tools.
   */
  capabilities?: Partial<Omit<ModelCapabilities, 'hostedTools'>>;
  /** The name sent with a structured output schema (`responseFormat.name`). Default `final_output`. */
  structuredOutputName?: string;
}

const OPTIONS = optionKeys<AISdkModelOptions>('AISdkModelOptions', {
  capabilities: true,
  structuredOutputName: true,
});
const CAPABILITY_KEYS = optionKeys<Omit<ModelCapabilities, 'hostedTools'>>('AISdkModelOptions', {
  streaming: true,
  tools: true,
  structuredOutput: true,
  parallelToolCalls: true,
});

/** Validated options with defaults applied. */
export interface ResolvedOptions {
  capabilities: Partial<Omit<ModelCapabilities, 'hostedTools'>>;
  structuredOutputName: string;
}

export function resolveOptions(options: AISdkModelOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null)
    throw invalidOption('AISdkModel options must be an object.');
  OPTIONS.check(options);
  const capabilities = options.capabilities ?? {};
  if (typeof capabilities !== 'object' || capabilities === null)
    throw invalidOption('capabilities must be an object of booleans.');
  CAPABILITY_KEYS.check(capabilities, 'capabilities');
  for (const [name, value] of Object.entries(capabilities)) {
    if (typeof value !== 'boolean') throw invalidOption(`capabilities.${name} must be true or false.`);
  }
  const name = options.structuredOutputName ?? 'final_output';
  if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
    throw invalidOption(
      `structuredOutputName "${String(name)}" is invalid: use 1-64 letters, digits, "_" or "-".`,
    );
  }
  return { capabilities, structuredOutputName: name };
}
