import { redactSecrets } from '../shared/redact.js';
import {
  OpenAIAPIError,
  type OpenAIAPIErrorDetails,
  OpenAIAuthenticationError,
  OpenAIBadRequestError,
  OpenAINotFoundError,
  OpenAIPermissionDeniedError,
  OpenAIRateLimitError,
  OpenAIServerError,
} from './errors.js';
import { isRecord, optionalString } from './json.js';

type ErrorClass = new (code: string, message: string, details: OpenAIAPIErrorDetails) => OpenAIAPIError;

function classFor(status: number): { Class: ErrorClass; code: string; hint: string } {
  if (status === 400) return { Class: OpenAIBadRequestError, code: 'bad_request', hint: '' };
  if (status === 401) {
    return {
      Class: OpenAIAuthenticationError,
      code: 'authentication_failed',
      hint: ' Check the apiKey (or apiKeyProvider) given to the OpenAI model.',
    };
  }
  if (status === 403) {
    return {
      Class: OpenAIPermissionDeniedError,
      code: 'permission_denied',
      hint: ' Check that the key may use this model, organization and project.',
    };
  }
  if (status === 404) {
    return { Class: OpenAINotFoundError, code: 'not_found', hint: ' Check the model name and baseURL.' };
  }
  if (status === 429) return { Class: OpenAIRateLimitError, code: 'rate_limit_exceeded', hint: '' };
  if (status >= 500) return { Class: OpenAIServerError, code: 'server_error', hint: '' };
  return { Class: OpenAIAPIError, code: 'api_error', hint: '' };
}

/** Builds the typed error for a non-2xx answer from its status and (possibly non-JSON) body. */
export function errorFromHttpResponse(
  status: number,
  bodyText: string,
  requestId: string | undefined,
  apiKey: string | undefined,
): OpenAIAPIError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const type = optionalString(error?.type);
  const param = optionalString(error?.param);
  const { Class, code: defaultCode, hint } = classFor(status);
  const code = optionalString(error?.code) ?? type ?? defaultCode;
  const detail = optionalString(error?.message) ?? (bodyText.trim().slice(0, 300) || 'no error message');
  const suffix = requestId ? ` (request id ${requestId})` : '';
  const message = redactSecrets(`OpenAI API error ${status} (${code}): ${detail}${hint}${suffix}`, [apiKey]);
  return new Class(code, message, { status, requestId, type, param });
}
