export {
  OpenAIAPIError,
  type OpenAIAPIErrorDetails,
  OpenAIAuthenticationError,
  OpenAIBadRequestError,
  OpenAIConnectionError,
  OpenAINotFoundError,
  OpenAIPermissionDeniedError,
  OpenAIRateLimitError,
  OpenAIResponseFailedError,
  OpenAIServerError,
} from './errors.js';
export { OpenAIResponsesModel } from './model.js';
export type { OpenAIApiKeyProvider, OpenAIClientOptions, OpenAIResponsesModelOptions } from './options.js';
export { OpenAIProvider, type OpenAIProviderOptions } from './provider.js';
