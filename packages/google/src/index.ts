export * from './wire/live-wire.js';
