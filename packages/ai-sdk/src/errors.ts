import { ParleyError, UserError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** Fields of an {@link AISdkAPIError}. */
export interface AISdkAPIErrorDetails {
  /** The AI SDK provider that failed, e.g. `anthropic.messages`. */
  provider: string;
  /** The HTTP status, when the provider answered with an HTTP error. */
  status?: number;
  /** The provider's request id header (`x-request-id`, `request-id`, …), for its support. */
  requestId?: string;
  /** Whether the provider marked the failure as worth retrying (429, 5xx, network). */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * A failure of the wrapped AI SDK model: an HTTP error of its provider (`code` by status: `bad_request`,
 * `authentication_failed`, `permission_denied`, `not_found`, `rate_limit_exceeded`, `server_error`, `api_error`),
 * `connection_error` (no HTTP answer), `stream_error` (an error part in a stream), `stream_interrupted` (a stream
 * that ended before its `finish` part) or `provider_error` (any other error the model threw). `cause` is the AI
 * SDK's own error. Messages never contain anything shaped like an API key.
 */
export class AISdkAPIError extends ParleyError {
  static {
    brand(AISdkAPIError, 'ai-sdk.AISdkAPIError');
  }

  readonly provider: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;

  constructor(code: string, message: string, details: AISdkAPIErrorDetails) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.provider = details.provider;
    this.status = details.status;
    this.requestId = details.requestId;
    this.retryable = details.retryable ?? false;
  }
}

/** The model given to `AISdkModel` implements a provider specification version this package does not drive. */
export class UnsupportedSpecificationVersionError extends UserError {
  static {
    brand(UnsupportedSpecificationVersionError, 'ai-sdk.UnsupportedSpecificationVersionError');
  }

  /** The version the model declared (`undefined` when it declared none). */
  readonly specificationVersion: unknown;

  constructor(specificationVersion: unknown, message: string) {
    super(message, { code: 'unsupported_specification_version' });
    this.specificationVersion = specificationVersion;
  }
}
