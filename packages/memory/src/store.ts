import type { AddItemsOptions, ConversationItem } from '@parley/core';

/** A paused run taken by one process: the saved state, held until `leaseUntil` (ms since the epoch). */
export interface RunClaim {
  /** Who holds it: the claimant's id, checked when it finishes or releases the run. */
  owner: string;
  /** When the claim lapses (ms since the epoch) and another process may take the run. */
  leaseUntil: number;
}

/**
 * What a backend stores: conversation items per session id, and paused runs under an id. Every store in
 * this package implements it; implement it (and pass {@link describeStoreConformance}) to add your own.
 */
export interface MemoryStore {
  /** The items of a session, oldest first; with `limit`, only the latest `limit`. A missing session has none. */
  getItems(sessionId: string, limit?: number): Promise<ConversationItem[]>;
  /**
   * Appends `items` at the end of the session, all or none, contiguous even with other writers. A write
   * with an `operationId` the session has already applied is a no-op.
   */
  addItems(sessionId: string, items: ConversationItem[], options?: AddItemsOptions): Promise<void>;
  /** Removes and returns the latest item of the session, if any. */
  popItem(sessionId: string): Promise<ConversationItem | undefined>;
  /** Removes every item of the session. */
  clearSession(sessionId: string): Promise<void>;
  /** Saves a paused run's state text under `runId`, unclaimed (replacing what was there). */
  saveRun(runId: string, state: string): Promise<void>;
  /**
   * Takes the run if no one holds it (or the holder's lease lapsed before `now`): one caller wins, the
   * others get `undefined`, as does a missing run.
   */
  claimRun(runId: string, claim: RunClaim, now: number): Promise<string | undefined>;
  /**
   * Ends `owner`'s claim: `state` saves the run again, unclaimed (paused once more); `undefined` removes it.
   * Returns `false` when `owner` no longer holds the run (its lease lapsed and another process took it).
   */
  finishRun(runId: string, owner: string, state: string | undefined): Promise<boolean>;
  /** Releases connections the store opened (never ones passed in). Idempotent. */
  close(): Promise<void>;
}
