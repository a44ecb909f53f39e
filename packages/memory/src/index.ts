export { type EncryptedStoreOptions, type EncryptionKey, encryptedStore } from './encrypted-store.js';
export { MemoryStoreError } from './errors.js';
export { InMemoryData, type InMemoryRun, InMemoryStore } from './in-memory-store.js';
export { ClaimedRun, PausedRuns, type PausedRunsOptions } from './paused-runs.js';
export { type ItemRedactor, redactedStore } from './redacted-store.js';
export type { MemoryStore, RunClaim } from './store.js';
export { StoreSession, storeSession } from './store-session.js';
