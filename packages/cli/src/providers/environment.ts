import { MissingEnvironmentError } from '../cli/errors.js';

/** The environment variables each real provider needs. */
export const PROVIDER_ENVIRONMENT = {
  openai: ['OPENAI_API_KEY'],
  azure: ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_DEPLOYMENT'],
} as const;

/** A provider that talks to a real service. */
export type RealProvider = keyof typeof PROVIDER_ENVIRONMENT;

/** The provider's variables from `env`; throws {@link MissingEnvironmentError} naming the ones not set. */
export function providerEnvironment<P extends RealProvider>(
  provider: P,
  env: Readonly<Record<string, string | undefined>>,
): Record<(typeof PROVIDER_ENVIRONMENT)[P][number], string> {
  const names = PROVIDER_ENVIRONMENT[provider];
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) throw new MissingEnvironmentError(provider, names, missing);
  return Object.fromEntries(names.map((name) => [name, env[name] as string])) as Record<
    (typeof PROVIDER_ENVIRONMENT)[P][number],
    string
  >;
}
