import { APICallError } from '@ai-sdk/provider';
import { ParleyError } from '@parley/core';
import { AISdkAPIError } from './errors.js';

/** Text shaped like an API key (`sk-…`, `sk-ant-…`, masked `sk-…****abcd`, `ek_…`), removed from messages. */
const KEY_LIKE = /\b(sk-|ek_|gsk_|xai-)[A-Za-z0-9_\-*.]{3,}/g;

/** Response headers that carry the provider's request id, in the order they are looked for. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-goog-request-id', 'cf-ray'];

function redact(text: string): string {
  return text.replace(KEY_LIKE, '$1[redacted]');
}

/** `error` itself, or a plain copy without the response body when its message or body shows something key-like. */
function safeCause(error: APICallError): unknown {
  const shown = `${error.message}\n${error.responseBody ?? ''}`;
  if (redact(shown) === shown) return error;
  const copy = new Error(redact(error.message));
  copy.name = error.name;
  return copy;
}

function codeForStatus(status: number): string {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'authentication_failed';
  if (status === 403) return 'permission_denied';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'api_error';
}

/** The request id among `headers` (any letter case), if the provider sent one. */
export function requestIdOf(headers: Record<string, string | undefined> | undefined): string | undefined {
  if (!headers) return undefined;
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const name of REQUEST_ID_HEADERS) {
    const value = lower.get(name);
    if (value) return value;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const nested =
      (error as { message?: unknown; error?: { message?: unknown } }).message ??
      (error as { error?: { message?: unknown } }).error?.message;
    if (typeof nested === 'string') return nested;
    try {
      return JSON.stringify(error).slice(0, 300);
    } catch {
      return String(error);
    }
  }
  return String(error);
}

/**
 * The Parley error for what the wrapped model threw (or sent as a stream `error` part): an `APICallError` keeps its
 * status, request id and retryability; a Parley error or the abort reason passes through unchanged.
 */
export function toParleyError(
  error: unknown,
  provider: string,
  options: { inStream?: boolean; requestId?: string } = {},
): unknown {
  if (error instanceof ParleyError) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const requestId = requestIdOf(error.responseHeaders) ?? options.requestId;
    const code = status === undefined ? 'connection_error' : codeForStatus(status);
    const suffix = requestId ? ` (request id ${requestId})` : '';
    const what = status === undefined ? 'could not be reached' : `answered HTTP ${status}`;
    return new AISdkAPIError(
      code,
      redact(`The ${provider} model ${what} (${code}): ${error.message}${suffix}`),
      {
        provider,
        status,
        requestId,
        retryable: error.isRetryable,
        cause: safeCause(error),
      },
    );
  }
  const code = options.inStream ? 'stream_error' : 'provider_error';
  const suffix = options.requestId ? ` (request id ${options.requestId})` : '';
  return new AISdkAPIError(
    code,
    redact(`The ${provider} model failed (${code}): ${messageOf(error)}${suffix}`),
    {
      provider,
      requestId: options.requestId,
      cause: error,
    },
  );
}
