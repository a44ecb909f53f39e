import { ParleyError } from '@parley/core';

/** A provider the command knows but this build cannot run yet. */
export function unavailableProvider(provider: string): ParleyError {
  return new ParleyError(
    'provider_unavailable',
    `--provider ${provider} is not available in this version of @parley/cli; use --provider openai, or leave --provider out to run offline.`,
  );
}
