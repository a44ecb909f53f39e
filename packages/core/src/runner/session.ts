import { brand } from '../brand.js';
import type { ConversationItem } from '../items.js';

/**
 * Conversation memory across runs. `run(agent, input, { session })` reads the items before the first turn
 * (they precede the input in what the model sees) and adds the input and the new items when the run
 * ends (with a final output, an interruption or `cancel('after_turn')`).
 */
export interface Session {
  /** The stored items, oldest first; with `limit`, only the latest `limit` items. */
  getItems(limit?: number): Promise<ConversationItem[]>;
  /** Appends items at the end. */
  addItems(items: ConversationItem[]): Promise<void>;
  /** Removes and returns the latest item, if any (e.g. to undo a user message). */
  popItem(): Promise<ConversationItem | undefined>;
  /** Removes every item. */
  clearSession(): Promise<void>;
}

/** A {@link Session} kept in memory, for tests, demos and single-process apps. */
export class MemorySession implements Session {
  static {
    brand(MemorySession, 'core.MemorySession');
  }

  #items: ConversationItem[];

  constructor(initialItems: ConversationItem[] = []) {
    this.#items = [...initialItems];
  }

  async getItems(limit?: number): Promise<ConversationItem[]> {
    if (limit === undefined) return [...this.#items];
    return limit > 0 ? this.#items.slice(-limit) : [];
  }

  async addItems(items: ConversationItem[]): Promise<void> {
    this.#items.push(...items);
  }

  async popItem(): Promise<ConversationItem | undefined> {
    return this.#items.pop();
  }

  async clearSession(): Promise<void> {
    this.#items = [];
  }
}
