export type { MockOutputOptions } from './builders.js';
export * from './errors.js';
export * from './mock-model.js';
export * from './mock-model-provider.js';
export * from './script.js';
