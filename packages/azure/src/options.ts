import { invalidOption, type OptionKeyList } from '@parley/core/internal';
import { RESERVED_UPGRADE_HEADERS } from '@parley/openai/protocol';
import { type AzureCredential, type AzureTokenProvider, assertCredentialShape } from './credentials.js';
import { AZURE_ENV, readEnv } from './env.js';

/** Where and as whom the Azure models connect; shared by the Realtime and the Responses model. */
export interface AzureOpenAIConnectionOptions {
  /**
   * The resource endpoint, e.g. `https://my-resource.openai.azure.com` (a custom domain works too; `wss://` and a
   * trailing `/openai` or `/openai/v1` are accepted). Default the `AZURE_OPENAI_ENDPOINT` environment variable.
   * Give this or `resourceName`, not both.
   */
  endpoint?: string;
  /** The resource name, for `https://{resourceName}.openai.azure.com`. */
  resourceName?: string;
  /** The deployment to call (the Azure name of the model). Default `AZURE_OPENAI_DEPLOYMENT`. */
  deployment?: string;
  /**
   * An Azure OpenAI key, sent in the `api-key` header. Default `AZURE_OPENAI_API_KEY` when no `tokenProvider` is
   * given. It never appears in a URL (unless the Realtime model's `queryAuth` asks for it), an error or a log.
   */
  apiKey?: string;
  /**
   * Returns a Microsoft Entra ID token (scope `https://cognitiveservices.azure.com/.default`), sent as
   * `Authorization: Bearer`. Called before every connection and reconnection (Realtime) or request (Responses), so a
   * refreshed token is used. Give this or `apiKey`, not both.
   */
  tokenProvider?: AzureTokenProvider;
  /** Extra headers on every request. `api-key` and `Authorization` come from the credential. */
  headers?: Record<string, string>;
}

/** The validated connection options. */
export interface ResolvedAzureConnection {
  /** The endpoint's origin and path prefix, without a trailing slash (e.g. `https://r.openai.azure.com`). */
  base: URL;
  deployment: string;
  credential: AzureCredential;
  headers: Record<string, string>;
}

/** The keys of {@link AzureOpenAIConnectionOptions}, for the option checks of both models. */
export const CONNECTION_OPTION_KEYS: OptionKeyList<AzureOpenAIConnectionOptions> = {
  endpoint: true,
  resourceName: true,
  deployment: true,
  apiKey: true,
  tokenProvider: true,
  headers: true,
};

const RESOURCE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,62}$/;
const DEPLOYMENT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$/;

function resolveBase(options: AzureOpenAIConnectionOptions): URL {
  if (options.endpoint !== undefined && options.resourceName !== undefined) {
    throw invalidOption('Give either endpoint or resourceName, not both.');
  }
  if (options.resourceName !== undefined) {
    if (typeof options.resourceName !== 'string' || !RESOURCE_NAME.test(options.resourceName)) {
      throw invalidOption(
        'resourceName must be the Azure OpenAI resource name (letters, digits and "-"), e.g. "my-resource".',
      );
    }
    return new URL(`https://${options.resourceName}.openai.azure.com`);
  }
  const endpoint = options.endpoint ?? readEnv(AZURE_ENV.endpoint);
  if (endpoint === undefined) {
    throw invalidOption(
      `No Azure OpenAI endpoint: pass endpoint (e.g. "https://my-resource.openai.azure.com") or resourceName, or set ` +
        `the ${AZURE_ENV.endpoint} environment variable.`,
    );
  }
  const source = options.endpoint === undefined ? AZURE_ENV.endpoint : 'endpoint';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalidOption(`${source} is not a URL; expected e.g. https://my-resource.openai.azure.com.`);
  }
  if (!['https:', 'http:', 'wss:', 'ws:'].includes(url.protocol)) {
    throw invalidOption(`${source} must use https: (or http: for a local server), not ${url.protocol}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw invalidOption(
      `${source} must be the bare endpoint, without credentials, query or fragment; pass the key as apiKey.`,
    );
  }
  if (url.protocol === 'wss:') url.protocol = 'https:';
  if (url.protocol === 'ws:') url.protocol = 'http:';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/openai(\/v1)?$/, '');
  return url;
}

function resolveCredential(options: AzureOpenAIConnectionOptions): AzureCredential {
  if (options.apiKey !== undefined && options.tokenProvider !== undefined) {
    throw invalidOption('Give either apiKey or tokenProvider, not both.');
  }
  if (options.tokenProvider !== undefined) {
    if (typeof options.tokenProvider !== 'function') {
      throw invalidOption('tokenProvider must be a function returning a Microsoft Entra token.');
    }
    return { kind: 'entra', tokenProvider: options.tokenProvider };
  }
  const key = options.apiKey ?? readEnv(AZURE_ENV.apiKey);
  if (key === undefined) {
    throw invalidOption(
      `No Azure OpenAI credential: pass apiKey or tokenProvider (Microsoft Entra ID), or set the ` +
        `${AZURE_ENV.apiKey} environment variable.`,
    );
  }
  assertCredentialShape(key, options.apiKey === undefined ? AZURE_ENV.apiKey : 'apiKey');
  return { kind: 'api-key', key };
}

function resolveDeployment(options: AzureOpenAIConnectionOptions): string {
  const deployment = options.deployment ?? readEnv(AZURE_ENV.deployment);
  if (deployment === undefined) {
    throw invalidOption(
      `No Azure OpenAI deployment: pass deployment (the name you gave the model in Azure), or set the ` +
        `${AZURE_ENV.deployment} environment variable.`,
    );
  }
  if (typeof deployment !== 'string' || !DEPLOYMENT_NAME.test(deployment)) {
    const source = options.deployment === undefined ? AZURE_ENV.deployment : 'deployment';
    throw invalidOption(
      `${source} must be an Azure deployment name (letters, digits, ".", "_" and "-", at most 64 characters).`,
    );
  }
  return deployment;
}

function resolveHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const resolved: Record<string, string> = {};
  if (headers === undefined) return resolved;
  if (typeof headers !== 'object' || headers === null) throw invalidOption('headers must be an object.');
  for (const [name, value] of Object.entries(headers)) {
    if (RESERVED_UPGRADE_HEADERS.has(name.toLowerCase())) {
      throw invalidOption(
        `headers must not set "${name}": authentication comes from apiKey or tokenProvider, and the protocol from the model.`,
      );
    }
    if (typeof value !== 'string' || /[\r\n]/.test(value)) {
      throw invalidOption(`header "${name}" must be a string without line breaks.`);
    }
    resolved[name] = value;
  }
  return resolved;
}

/** Validates the connection options (reading the environment for what is left out). */
export function resolveAzureConnection(
  options: AzureOpenAIConnectionOptions,
  model: string,
): ResolvedAzureConnection {
  if (options === null || typeof options !== 'object')
    throw invalidOption(`${model} options must be an object.`);
  return {
    base: resolveBase(options),
    deployment: resolveDeployment(options),
    credential: resolveCredential(options),
    headers: resolveHeaders(options.headers),
  };
}

/** A deployment name check for other options that name deployments (e.g. the transcription deployment). */
export function assertDeploymentName(value: unknown, option: string): asserts value is string {
  if (typeof value !== 'string' || !DEPLOYMENT_NAME.test(value)) {
    throw invalidOption(
      `${option} must be an Azure deployment name (letters, digits, ".", "_" and "-", at most 64 characters).`,
    );
  }
}
