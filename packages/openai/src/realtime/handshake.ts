import { UserError } from '@parley/core';
import type { HandshakeCredentials, WebSocketStyle } from '@parley/transport';

/**
 * Builds the upgrade's headers and subprotocols: `Authorization: Bearer` where headers are possible; in a browser,
 * the `realtime` + `openai-insecure-api-key.<key>` subprotocols, and only for an ephemeral `ek_` key.
 */
export function handshakeCredentials(
  style: WebSocketStyle,
  apiKey: string,
  headers: Record<string, string>,
): HandshakeCredentials {
  if (style !== 'browser')
    return { headers: { ...headers, Authorization: `Bearer ${apiKey}` }, protocols: [] };
  assertBrowserKey(apiKey);
  const protocols = ['realtime', `openai-insecure-api-key.${apiKey}`];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'openai-organization') protocols.push(`openai-organization.${value}`);
    else if (lower === 'openai-project') protocols.push(`openai-project.${value}`);
    else throw browserHeaderError(name);
  }
  return { headers: {}, protocols };
}

/** Throws unless `apiKey` is an ephemeral key, the only kind a browser may hold. */
export function assertBrowserKey(apiKey: string): void {
  if (!apiKey.startsWith('ek_')) {
    throw new UserError(
      'A browser WebSocket cannot send headers, so only an ephemeral "ek_" key may be used there. Mint one on your ' +
        'server with createClientSecret() and pass it as apiKey (or apiKeyProvider).',
      { code: 'invalid_option' },
    );
  }
}

/** The error for a header a browser socket cannot send. */
export function browserHeaderError(name: string): UserError {
  return new UserError(
    `A browser WebSocket cannot send the header "${name}"; only OpenAI-Organization and OpenAI-Project can be ` +
      'passed (as subprotocols).',
    { code: 'invalid_option' },
  );
}
