import { OpenAIRealtimeError } from '@parley/openai';
import { AZURE_ENV } from './env.js';

/**
 * A refused upgrade in Azure's words: 401/403 names the credential to check, 404 the endpoint and deployment. Other
 * errors pass through unchanged. The class and code stay those of `OpenAIRealtimeError`, with the HTTP `status`.
 */
export function azureUpgradeError(error: unknown, deployment: string): unknown {
  if (!(error instanceof OpenAIRealtimeError) || error.status === undefined) return error;
  const { status } = error;
  if (status === 401 || status === 403) {
    return new OpenAIRealtimeError(
      'realtime_auth_failed',
      `Azure OpenAI refused the credentials (HTTP ${status}). Check the key (apiKey or ${AZURE_ENV.apiKey}) or, ` +
        'with tokenProvider, that the token is for https://cognitiveservices.azure.com/.default and the identity ' +
        'has the "Cognitive Services User" role on the resource.',
      { status, cause: error },
    );
  }
  if (status === 404) {
    return new OpenAIRealtimeError(
      'realtime_handshake_failed',
      `Azure OpenAI has no realtime endpoint for deployment "${deployment}" here (HTTP 404). Check the endpoint ` +
        `(endpoint or ${AZURE_ENV.endpoint}) and the deployment name (deployment or ${AZURE_ENV.deployment}); ` +
        'an apiVersion selects the legacy preview path, which newer resources may not serve.',
      { status, cause: error },
    );
  }
  return error;
}
