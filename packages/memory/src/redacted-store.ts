import type { AddItemsOptions, ConversationItem } from '@parley/core';
import { MemoryStoreError } from './errors.js';
import type { MemoryStore, RunClaim } from './store.js';

/**
 * Decides what of an item is kept: return it changed (e.g. card numbers masked), as is, or `undefined` to keep
 * nothing of it. Runs before each write; what it removes never reaches the store.
 */
export type ItemRedactor = (item: ConversationItem, sessionId: string) => ConversationItem | undefined;

/**
 * A {@link MemoryStore} that passes every item through `redact` before `store` writes it. Reads return what was
 * kept. Paused runs are stored as they are (a run must resume with what the model saw); wrap the store with
 * {@link encryptedStore} as well to protect them.
 */
export function redactedStore(store: MemoryStore, redact: ItemRedactor): MemoryStore {
  if (typeof redact !== 'function') {
    throw new MemoryStoreError(
      'invalid_option',
      'redactedStore: pass a function (item, sessionId) => item | undefined.',
    );
  }
  return {
    getItems: (sessionId: string, limit?: number) => store.getItems(sessionId, limit),
    async addItems(sessionId: string, items: ConversationItem[], options?: AddItemsOptions): Promise<void> {
      const kept = items.flatMap((item) => {
        const result = redact(item, sessionId);
        return result === undefined ? [] : [result];
      });
      await store.addItems(sessionId, kept, options);
    },
    popItem: (sessionId: string) => store.popItem(sessionId),
    clearSession: (sessionId: string) => store.clearSession(sessionId),
    saveRun: (runId: string, state: string) => store.saveRun(runId, state),
    claimRun: (runId: string, claim: RunClaim, now: number) => store.claimRun(runId, claim, now),
    finishRun: (runId: string, owner: string, state: string | undefined) =>
      store.finishRun(runId, owner, state),
    close: () => store.close(),
  };
}
