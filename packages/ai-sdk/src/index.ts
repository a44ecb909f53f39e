export { AISdkModel } from './ai-sdk-model.js';
export {
  AISdkAPIError,
  type AISdkAPIErrorDetails,
  UnsupportedSpecificationVersionError,
} from './errors.js';
export type { AISdkModelOptions } from './options.js';
export {
  type AISdkLanguageModel,
  SUPPORTED_SPECIFICATION_VERSIONS,
} from './specification.js';
