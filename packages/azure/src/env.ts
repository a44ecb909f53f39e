/** The environment variables the Azure models read when an option is left out. */
export const AZURE_ENV = {
  endpoint: 'AZURE_OPENAI_ENDPOINT',
  apiKey: 'AZURE_OPENAI_API_KEY',
  deployment: 'AZURE_OPENAI_DEPLOYMENT',
} as const;

/** An environment variable, where the runtime has `process.env`; `undefined` when unset or empty. */
export function readEnv(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    name
  ];
  return value === undefined || value === '' ? undefined : value;
}
