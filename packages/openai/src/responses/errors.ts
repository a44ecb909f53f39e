import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Fields of every {@link OpenAIAPIError}. */
export interface OpenAIAPIErrorDetails {
  /** The HTTP status, when the failure was an HTTP error response. */
  status?: number;
  /** The `x-request-id` header of the failed response, for OpenAI support. */
  requestId?: string;
  /** The body's `error.type`, e.g. `invalid_request_error`. */
  type?: string;
  /** The body's `error.param`: the request field at fault, when the API names one. */
  param?: string;
  cause?: unknown;
}

/**
 * A failure reported by (or on the way to) the OpenAI API. `code` is the body's `error.code`, else its
 * `error.type`, else a default for the kind of failure. Messages never contain the API key.
 */
export class OpenAIAPIError extends ParleyError {
  static {
    brand(OpenAIAPIError, 'openai.OpenAIAPIError');
  }

  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly type: string | undefined;
  readonly param: string | undefined;

  constructor(code: string, message: string, details: OpenAIAPIErrorDetails = {}) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.requestId = details.requestId;
    this.type = details.type;
    this.param = details.param;
  }
}

/** HTTP 400: the request was malformed (a bad field, an unsupported schema); `param` names the field. */
export class OpenAIBadRequestError extends OpenAIAPIError {}

/** HTTP 401: the API key is missing, wrong or revoked. */
export class OpenAIAuthenticationError extends OpenAIAPIError {}

/** HTTP 403: the key may not use this model, project or organization. */
export class OpenAIPermissionDeniedError extends OpenAIAPIError {}

/** HTTP 404: unknown model or endpoint (check `model` and `baseURL`). */
export class OpenAINotFoundError extends OpenAIAPIError {}

/** HTTP 429: rate limited or out of quota; retried automatically up to `maxRetries`. */
export class OpenAIRateLimitError extends OpenAIAPIError {}

/** HTTP 5xx: the service failed; retried automatically up to `maxRetries`. */
export class OpenAIServerError extends OpenAIAPIError {}

/**
 * The API could not be reached or the connection broke: `code` is `connection_error` (network failure,
 * retried), `timeout` (no answer within `timeoutMs`, retried) or `stream_interrupted` (a stream ended
 * before its final event; never retried, since events were already delivered).
 */
export class OpenAIConnectionError extends OpenAIAPIError {}

/** The response itself failed (`response.failed` or an `error` event in a stream, or `status: 'failed'`). */
export class OpenAIResponseFailedError extends OpenAIAPIError {
  static {
    brand(OpenAIResponseFailedError, 'openai.OpenAIResponseFailedError');
  }

  /** The id of the failed response, when the API sent one. */
  readonly responseId: string | undefined;

  constructor(code: string, message: string, details: OpenAIAPIErrorDetails & { responseId?: string } = {}) {
    super(code, message, details);
    this.responseId = details.responseId;
  }
}
