export { liveCapabilities } from './capabilities.js';
export { OpenAILiveError, type OpenAILiveErrorCode } from './errors.js';
export { OpenAILiveConnection } from './live-connection.js';
export { OpenAILiveModel } from './openai-live-model.js';
export type { OpenAILiveModelOptions } from './options.js';
