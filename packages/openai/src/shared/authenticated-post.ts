import { ServiceUnreachableError } from '@parley/core';
import { networkFailureText } from './network-failure.js';
import { redactCause, redactSecrets } from './redact.js';

/** What an OpenAI endpoint answered an {@link authenticatedPost}, the body read once. */
export interface PostAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON; `undefined` when it is empty or not JSON (an SDP answer, a proxy's HTML page). */
  readonly json: unknown;
  /** The `error.message` of a JSON error body, with the key removed; `undefined` when there is none. */
  readonly errorMessage: string | undefined;
}

/** Options of {@link authenticatedPost}. */
export interface AuthenticatedPost {
  url: string;
  /** Sent as `Authorization: Bearer <key>`; removed from every error and message. */
  key: string;
  /** What the body is: JSON (serialized here) or an SDP offer. */
  body: { json: unknown } | { sdp: string };
  /** Named in the `ServiceUnreachableError` (e.g. "the OpenAI API"). */
  service: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * `POST`s to an OpenAI endpoint with the key as a bearer token and reads the answer: the one path of the package's
 * HTTP calls (client secrets, WebRTC calls, GPT-Live sessions), each caller turning the answer into its own typed
 * error. No answer at all is a `ServiceUnreachableError` without the key in any field; an abort rejects with the
 * signal's reason.
 */
export async function authenticatedPost(options: AuthenticatedPost): Promise<PostAnswer> {
  const { url, key, body, signal } = options;
  // Called on no object: a browser's fetch throws "Illegal invocation" when it is called as another object's method.
  const fetch = options.fetch ?? globalThis.fetch;
  const sdp = 'sdp' in body;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': sdp ? 'application/sdp' : 'application/json',
      },
      body: sdp ? body.sdp : JSON.stringify(body.json),
      ...(signal && { signal }),
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new ServiceUnreachableError(options.service, url, redactSecrets(networkFailureText(error), [key]), {
      cause: redactCause(error, [key]),
    });
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const message = (json as { error?: { message?: unknown } } | undefined)?.error?.message;
  return {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    text,
    json,
    errorMessage: typeof message === 'string' ? redactSecrets(message, [key]) : undefined,
  };
}
