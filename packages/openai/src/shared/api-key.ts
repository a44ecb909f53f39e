import { invalidOption } from '@parley/core/internal';

/** A key, or a function that fetches one before every connection. */
export type ApiKeySource = string | (() => string | Promise<string>);

const KEY_SHAPE = /^[\x21-\x7e]+$/;

/** Checks that `key` can go into a header or subprotocol; the message never quotes the key. */
export function assertApiKeyShape(key: unknown, source: string): asserts key is string {
  if (typeof key !== 'string' || key.length === 0) {
    throw invalidOption(
      `${source} must be a non-empty string. Pass your OpenAI API key or an ephemeral "ek_" key.`,
    );
  }
  if (!KEY_SHAPE.test(key)) {
    throw invalidOption(
      `${source} contains spaces, line breaks or non-ASCII characters; check how the key was loaded.`,
    );
  }
}

/**
 * The key option of a realtime model: exactly one of `apiKey` and `apiKeyProvider`, else `OPENAI_API_KEY`. Throws a
 * `UserError` (`invalid_option`) before any connection.
 */
export function resolveApiKeySource(options: { apiKey?: unknown; apiKeyProvider?: unknown }): ApiKeySource {
  const { apiKey, apiKeyProvider } = options;
  if (apiKey !== undefined && apiKeyProvider !== undefined) {
    throw invalidOption('Pass either apiKey or apiKeyProvider, not both.');
  }
  if (apiKeyProvider !== undefined) {
    if (typeof apiKeyProvider !== 'function')
      throw invalidOption('apiKeyProvider must be a function returning a key.');
    return apiKeyProvider as () => string | Promise<string>;
  }
  const fromEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.OPENAI_API_KEY;
  const key = apiKey ?? fromEnv;
  if (key === undefined) {
    throw invalidOption(
      'No API key: pass apiKey, apiKeyProvider, or set the OPENAI_API_KEY environment variable.',
    );
  }
  assertApiKeyShape(key, apiKey === undefined ? 'OPENAI_API_KEY' : 'apiKey');
  return key;
}

/**
 * The key for one connection: `source` itself, or what its provider returns, checked. A provider that throws or
 * returns no usable key becomes `unavailable(message, cause)` (the adapter's own error class and code).
 */
export async function obtainApiKey(
  source: ApiKeySource,
  unavailable: (message: string, cause?: unknown) => Error,
): Promise<string> {
  if (typeof source === 'string') return source;
  let key: unknown;
  try {
    key = await source();
  } catch (error) {
    throw unavailable('apiKeyProvider threw instead of returning a key; see `cause`.', error);
  }
  try {
    assertApiKeyShape(key, 'The key returned by apiKeyProvider');
  } catch (error) {
    throw unavailable((error as Error).message);
  }
  return key;
}
