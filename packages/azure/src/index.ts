export { AZURE_REALTIME_CAPABILITIES } from './capabilities.js';
export { type AzureCredential, AzureTokenError, type AzureTokenProvider } from './credentials.js';
export { AZURE_ENV } from './env.js';
export { AzureOpenAILiveModel, type AzureOpenAILiveModelOptions } from './live-model.js';
export type { AzureOpenAIConnectionOptions } from './options.js';
export {
  AzureOpenAIRealtimeModel,
  type AzureOpenAIRealtimeModelOptions,
  type AzureWarning,
} from './realtime-model.js';
export { AzureOpenAIResponsesModel, type AzureOpenAIResponsesModelOptions } from './responses-model.js';
