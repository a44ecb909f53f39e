export * from './live/index.js';
export * from './realtime/index.js';
export * from './responses/index.js';
