import type { AddItemsOptions, ConversationItem, Session } from '@parley/core';
import { checkId } from './errors.js';
import type { MemoryStore } from './store.js';

/** One conversation of a {@link MemoryStore}, as the `Session` a run or a `RealtimeSession` takes. */
export class StoreSession implements Session {
  readonly #store: MemoryStore;
  /** The conversation's id in the store. */
  readonly sessionId: string;

  constructor(store: MemoryStore, sessionId: string) {
    checkId('sessionId', sessionId);
    this.#store = store;
    this.sessionId = sessionId;
  }

  getItems(limit?: number): Promise<ConversationItem[]> {
    return this.#store.getItems(this.sessionId, limit);
  }

  addItems(items: ConversationItem[], options?: AddItemsOptions): Promise<void> {
    return this.#store.addItems(this.sessionId, items, options);
  }

  popItem(): Promise<ConversationItem | undefined> {
    return this.#store.popItem(this.sessionId);
  }

  clearSession(): Promise<void> {
    return this.#store.clearSession(this.sessionId);
  }
}

/** The `Session` of conversation `sessionId` in `store`: pass it to `run()` or a `RealtimeSession`. */
export function storeSession(store: MemoryStore, sessionId: string): StoreSession {
  return new StoreSession(store, sessionId);
}
