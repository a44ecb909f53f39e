import { UserError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Returns a Microsoft Entra ID access token (scope `https://cognitiveservices.azure.com/.default`). */
export type AzureTokenProvider = () => string | Promise<string>;

/** How requests authenticate: an Azure OpenAI key, or an Entra token fetched before every connection or request. */
export type AzureCredential =
  | { kind: 'api-key'; key: string }
  | { kind: 'entra'; tokenProvider: AzureTokenProvider };

const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** Checks that a key or token can go into a header; the message never quotes it. */
export function assertCredentialShape(value: unknown, source: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new UserError(`${source} must be a non-empty string.`, { code: 'invalid_option' });
  }
  if (!HEADER_SAFE.test(value)) {
    throw new UserError(
      `${source} contains spaces, line breaks or non-ASCII characters; check how it was loaded.`,
      { code: 'invalid_option' },
    );
  }
}

/** A thrown or malformed token from the `tokenProvider`. */
export class AzureTokenError extends UserError {
  static {
    brand(AzureTokenError, 'azure.AzureTokenError');
  }

  constructor(message: string, cause?: unknown) {
    super(message, { code: 'azure_token_unavailable', ...(cause !== undefined && { cause }) });
  }
}

/** Calls the token provider once and checks what it returned. */
export async function fetchToken(tokenProvider: AzureTokenProvider): Promise<string> {
  let token: unknown;
  try {
    token = await tokenProvider();
  } catch (error) {
    throw new AzureTokenError(
      'tokenProvider threw instead of returning a Microsoft Entra token; see `cause`.',
      error,
    );
  }
  try {
    assertCredentialShape(token, 'The token returned by tokenProvider');
  } catch (error) {
    throw new AzureTokenError((error as Error).message);
  }
  return token;
}

/**
 * The credential as `@parley/openai`'s key options: the key sent as the `api-key` header, or a token fetched before
 * every request or connection and sent as `Authorization: Bearer`.
 */
export function openAIKeyOptions(
  credential: AzureCredential,
): { apiKey: string; authHeader: 'api-key' } | { apiKeyProvider: () => Promise<string> } {
  return credential.kind === 'api-key'
    ? { apiKey: credential.key, authHeader: 'api-key' }
    : { apiKeyProvider: () => fetchToken(credential.tokenProvider) };
}
