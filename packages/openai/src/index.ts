export * from './realtime/index.js';
export * from './responses/index.js';
