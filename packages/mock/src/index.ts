export * from './manual-clock.js';
export * from './realtime/index.js';
export * from './text/index.js';
