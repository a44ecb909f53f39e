import { UserError } from '@parley/core';
import type { Handshake, WebSocketStyle } from '@parley/transport';
import { GeminiLiveError } from './errors.js';
import type { ResolvedGeminiOptions, TokenSource } from './options.js';

/** The credential of one connection: the API key, or a token fetched now from its source. */
export async function obtainSecret(options: ResolvedGeminiOptions): Promise<string> {
  const { credentials } = options;
  if (credentials.kind === 'apiKey') return credentials.key;
  return fetchToken(
    credentials.token,
    credentials.kind === 'vertex' ? 'vertex.accessToken' : 'ephemeralToken',
  );
}

async function fetchToken(source: TokenSource, name: string): Promise<string> {
  if (typeof source === 'string') return source;
  let token: unknown;
  try {
    token = await source();
  } catch (cause) {
    throw new GeminiLiveError(
      'gemini_credentials_unavailable',
      `The ${name} function threw; no token to connect with.`,
      {
        cause,
      },
    );
  }
  if (typeof token !== 'string' || token === '') {
    throw new GeminiLiveError(
      'gemini_credentials_unavailable',
      `The ${name} function must return a non-empty string.`,
    );
  }
  return token;
}

/**
 * Where the upgrade goes and what it carries: the API key as the `x-goog-api-key` header (as the `key` query
 * parameter where the socket cannot send headers), an ephemeral token as `access_token` on the constrained endpoint,
 * a Vertex AI access token as `Authorization: Bearer` (headers only).
 */
export function handshakeFor(
  options: ResolvedGeminiOptions,
  style: WebSocketStyle,
  secret: string,
): Handshake {
  const { credentials, baseUrl, apiVersion, headers } = options;
  const service = `${baseUrl}/ws/google.ai.generativelanguage.${apiVersion}.GenerativeService`;
  switch (credentials.kind) {
    case 'apiKey':
      return style === 'browser'
        ? {
            url: `${service}.BidiGenerateContent?key=${encodeURIComponent(secret)}`,
            headers: {},
            protocols: [],
          }
        : {
            url: `${service}.BidiGenerateContent`,
            headers: { ...headers, 'x-goog-api-key': secret },
            protocols: [],
          };
    case 'ephemeral':
      return {
        url: `${service}.BidiGenerateContentConstrained?access_token=${encodeURIComponent(secret)}`,
        headers: style === 'browser' ? {} : headers,
        protocols: [],
      };
    case 'vertex':
      if (style === 'browser') {
        throw new UserError(
          'A browser WebSocket cannot send the Authorization header Vertex AI needs; connect from a server, or use ' +
            'the Gemini API with an ephemeral token (ephemeralToken) in the browser.',
          { code: 'invalid_option' },
        );
      }
      return {
        url: `${baseUrl}/ws/google.cloud.aiplatform.${apiVersion}.LlmBidiService/BidiGenerateContent`,
        headers: { ...headers, Authorization: `Bearer ${secret}` },
        protocols: [],
      };
  }
}
