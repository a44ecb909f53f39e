import { delay, ParleyError, ServiceUnreachableError } from '@parley/core';
import { errorText } from '@parley/core/internal';
import { networkFailureText } from '../shared/network-failure.js';
import { redactCause, redactError, redactSecrets } from '../shared/redact.js';
import { abortable, linkSignal } from './abort.js';
import { OpenAIConnectionError } from './errors.js';
import { errorFromHttpResponse } from './http-error.js';
import type { ResolvedClientOptions } from './options.js';
import { isRetryableStatus, retryDelayMs } from './retry-policy.js';

/** How {@link ResponsesTransport.post} sends one request and reads its successful answer. */
export interface PostOptions<T> {
  signal: AbortSignal | undefined;
  /** Asks for `text/event-stream` instead of JSON. */
  stream: boolean;
  /**
   * Reads a 2xx answer inside the attempt, so a network failure while reading is retried and the
   * timeout covers it. A stream returns the response untouched and reads it after `post` returns.
   */
  read(response: Response, signal: AbortSignal, requestId: string | undefined): Promise<T>;
}

/** A successful request. `signal` aborts with the caller's reason until `dispose()` detaches it. */
export interface PostResult<T> {
  value: T;
  /** The key the request sent: every error built from what the service answered is redacted of it. */
  apiKey: string;
  requestId: string | undefined;
  signal: AbortSignal;
  dispose(): void;
}

type Attempt<T> =
  | { ok: true; result: PostResult<T> }
  /** `apiKey`: the key the attempt sent, to be redacted from the error (not yet known when resolving it failed). */
  | { ok: false; error: unknown; retryable: boolean; headers?: Headers; apiKey?: string };

/**
 * POSTs JSON to an endpoint of the API (the Responses endpoint by default) with auth headers, a per-attempt timeout, and retries with
 * backoff on the injected clock. Aborting the caller's signal stops at once (also during a backoff)
 * with the signal's reason and is never retried.
 */
export class ResponsesTransport {
  readonly #options: ResolvedClientOptions;
  readonly #url: string;

  /** Posts to `url`: the Responses endpoint by default, or another endpoint of the same API (Chat Completions). */
  constructor(options: ResolvedClientOptions, url: string = options.responsesURL) {
    this.#options = options;
    this.#url = url;
  }

  /**
   * One call with `stream: false`: posts `body` and maps the JSON answer inside the attempt. `json` is `undefined`
   * when the body is not JSON.
   */
  async postForJSON<T>(
    body: object,
    signal: AbortSignal | undefined,
    map: (json: unknown, requestId: string | undefined) => T,
  ): Promise<T> {
    const result = await this.post(
      { ...body, stream: false },
      {
        signal,
        stream: false,
        read: async (response, attemptSignal, requestId) => {
          const text = await abortable(response.text(), attemptSignal);
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          return map(json, requestId);
        },
      },
    );
    result.dispose();
    return result.value;
  }

  async post<T>(body: unknown, options: PostOptions<T>): Promise<PostResult<T>> {
    const json = JSON.stringify(body);
    const caller = options.signal;
    for (let retry = 0; ; retry++) {
      if (caller?.aborted) throw caller.reason;
      const attempt = await this.#attempt(json, options);
      if (attempt.ok) return attempt.result;
      if (caller?.aborted) throw caller.reason;
      if (!attempt.retryable || retry >= this.#options.maxRetries)
        throw redactError(attempt.error, [attempt.apiKey]);
      await delay(this.#options.clock, retryDelayMs(retry, attempt.headers), caller);
    }
  }

  async #attempt<T>(json: string, options: PostOptions<T>): Promise<Attempt<T>> {
    const { clock, timeoutMs } = this.#options;
    const url = this.#url;
    const link = linkSignal(options.signal);
    const timeout = new OpenAIConnectionError(
      'timeout',
      `The OpenAI API did not answer within ${timeoutMs} ms (timeoutMs). Retry later or raise timeoutMs.`,
    );
    const timer = clock.setTimeout(() => link.abort(timeout), timeoutMs);
    let sentKey: string | undefined;
    const settle = (attempt: Attempt<T>): Attempt<T> => {
      clock.clearTimeout(timer);
      if (attempt.ok) return attempt;
      link.dispose();
      return { ...attempt, apiKey: sentKey };
    };
    const aborted = (): Attempt<T> | undefined => {
      if (options.signal?.aborted)
        return settle({ ok: false, error: options.signal.reason, retryable: false });
      if (link.signal.aborted) return settle({ ok: false, error: timeout, retryable: true });
      return undefined;
    };

    let apiKey: string;
    try {
      apiKey = await abortable(this.#options.apiKey(), link.signal);
      sentKey = apiKey;
    } catch (error) {
      return aborted() ?? settle({ ok: false, error, retryable: false });
    }

    const headers = new Headers(this.#options.headers);
    if (this.#options.authHeader === 'api-key') headers.set('api-key', apiKey);
    else headers.set('Authorization', `Bearer ${apiKey}`);
    headers.set('Content-Type', 'application/json');
    headers.set('Accept', options.stream ? 'text/event-stream' : 'application/json');
    let response: Response;
    try {
      response = await abortable(
        this.#options.fetch(url, { method: 'POST', headers, body: json, signal: link.signal }),
        link.signal,
        (late) => void late.body?.cancel().catch(() => {}),
      );
    } catch (error) {
      const failure = new ServiceUnreachableError(
        serviceOf(url),
        url,
        redactSecrets(networkFailureText(error), [apiKey]),
        { cause: redactCause(error, [apiKey]) },
      );
      return aborted() ?? settle({ ok: false, error: failure, retryable: true });
    }

    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (!response.ok) {
      let text = '';
      try {
        text = await abortable(response.text(), link.signal);
      } catch {
        const stopped = aborted();
        if (stopped) return stopped;
      }
      return settle({
        ok: false,
        error: errorFromHttpResponse(response.status, text, requestId, apiKey),
        retryable: isRetryableStatus(response.status, response.headers),
        headers: response.headers,
      });
    }

    try {
      const value = await options.read(response, link.signal, requestId);
      return settle({
        ok: true,
        result: { value, apiKey, requestId, signal: link.signal, dispose: link.dispose },
      });
    } catch (error) {
      const stopped = aborted();
      if (stopped) return stopped;
      if (error instanceof ParleyError) return settle({ ok: false, error, retryable: false });
      const detail = redactSecrets(errorText(error), [apiKey]);
      const failure = new OpenAIConnectionError(
        'connection_error',
        `The connection to the OpenAI API broke while reading the response: ${detail}.`,
        { cause: redactCause(error, [apiKey]), requestId },
      );
      return settle({ ok: false, error: failure, retryable: true });
    }
  }
}

/** The service an endpoint URL names, for errors. */
function serviceOf(url: string): string {
  const path = url.replace(/[?#].*$/, '');
  if (path.endsWith('/responses')) return 'the Responses API';
  if (path.endsWith('/chat/completions')) return 'the Chat Completions API';
  return 'the OpenAI API';
}
