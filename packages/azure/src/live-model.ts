import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
} from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { type OpenAILiveConnection, OpenAILiveModel, type OpenAILiveModelOptions } from '@parley/openai';
import { checkNestedLiveOptionKeys, LIVE_SESSION_OPTION_KEYS } from '@parley/openai/protocol';
import { openAIKeyOptions } from './credentials.js';
import {
  type AzureOpenAIConnectionOptions,
  CONNECTION_OPTION_KEYS,
  resolveAzureConnection,
} from './options.js';
import { liveURL } from './urls.js';

/** Options of {@link AzureOpenAILiveModel}: where and as whom, plus the GPT-Live options that are not about that. */
export interface AzureOpenAILiveModelOptions
  extends AzureOpenAIConnectionOptions,
    Omit<
      OpenAILiveModelOptions,
      'apiKey' | 'apiKeyProvider' | 'authHeader' | 'model' | 'url' | 'headers' | 'sessionId'
    > {}

const MODEL_OPTIONS = optionKeys<AzureOpenAILiveModelOptions>('AzureOpenAILiveModelOptions', {
  ...CONNECTION_OPTION_KEYS,
  ...LIVE_SESSION_OPTION_KEYS,
});

/**
 * GPT-Live on Azure AI Foundry (`wss://<resource>/openai/v1/live/sessions`, the deployment as the session's model), as
 * a Parley {@link RealtimeModel}: `@parley/openai`'s `OpenAILiveModel` with Azure's URL form and credentials (the
 * `api-key` header, or a Microsoft Entra token as `Authorization: Bearer`, fetched before every connection).
 *
 * ```ts
 * const model = new AzureOpenAILiveModel({
 *   endpoint: 'https://my-resource.openai.azure.com',
 *   deployment: 'gpt-live-1',
 *   apiKey: process.env.AZURE_OPENAI_API_KEY,
 * });
 * ```
 */
export class AzureOpenAILiveModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'azure-openai-live';
  readonly capabilities: RealtimeCapabilities;
  /** The deployment sent as `session.model`. */
  readonly deployment: string;
  /** The WebSocket URL (without credentials). */
  readonly url: string;
  readonly #live: OpenAILiveModel;

  constructor(options: AzureOpenAILiveModelOptions = {}) {
    if (options !== null && typeof options === 'object') {
      MODEL_OPTIONS.check(options);
      checkNestedLiveOptionKeys(options, MODEL_OPTIONS.owner);
    }
    const connection = resolveAzureConnection(options, 'AzureOpenAILiveModel');
    const { endpoint, resourceName, deployment, apiKey, tokenProvider, headers, ...live } = options;
    this.deployment = connection.deployment;
    this.url = liveURL(connection.base).href;
    this.#live = new OpenAILiveModel({
      ...live,
      url: this.url,
      model: connection.deployment,
      headers: connection.headers,
      ...openAIKeyOptions(connection.credential),
    });
    this.capabilities = this.#live.capabilities;
  }

  connect(options: RealtimeConnectOptions): Promise<OpenAILiveConnection> {
    return this.#live.connect(options);
  }
}
