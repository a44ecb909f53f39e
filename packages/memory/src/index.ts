export { MemoryStoreError } from './errors.js';
export { InMemoryData, type InMemoryRun, InMemoryStore } from './in-memory-store.js';
export { ClaimedRun, PausedRuns, type PausedRunsOptions } from './paused-runs.js';
export type { MemoryStore, RunClaim } from './store.js';
export { StoreSession, storeSession } from './store-session.js';
