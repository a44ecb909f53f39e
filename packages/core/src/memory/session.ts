import { brand } from '../brand.js';
import type { ConversationItem } from '../items.js';

/** Options of {@link Session.addItems}. */
export interface AddItemsOptions {
  /**
   * Names this write. A store applies a write with an id it has already applied as a no-op, so a write
   * retried after a timeout or a lost reply lands once. Parley derives one per run and range of items.
   */
  operationId?: string;
}

/**
 * Conversation memory shared by text runs and voice calls. `run(agent, input, { session })` reads the items
 * before the first turn (they precede the input in what the model sees) and adds the input and the new
 * items as they complete; a `RealtimeSession` with `memory` writes every turn as the listener heard it.
 * `@parley/memory` has stores for PGlite, PostgreSQL and Redis, and a conformance suite for your own.
 */
export interface Session {
  /** The stored items, oldest first; with `limit`, only the latest `limit` items. */
  getItems(limit?: number): Promise<ConversationItem[]>;
  /** Appends items at the end, all or none. */
  addItems(items: ConversationItem[], options?: AddItemsOptions): Promise<void>;
  /** Removes and returns the latest item, if any (e.g. to undo a user message). */
  popItem(): Promise<ConversationItem | undefined>;
  /** Removes every item. */
  clearSession(): Promise<void>;
}

/** How many operation ids a {@link MemorySession} remembers to recognise retried writes. */
const REMEMBERED_OPERATIONS = 1024;

/** A {@link Session} kept in memory, for tests, demos and single-process apps. */
export class MemorySession implements Session {
  static {
    brand(MemorySession, 'core.MemorySession');
  }

  #items: ConversationItem[];
  readonly #operations = new Set<string>();

  constructor(initialItems: ConversationItem[] = []) {
    this.#items = structuredClone(initialItems);
  }

  async getItems(limit?: number): Promise<ConversationItem[]> {
    if (limit === undefined) return structuredClone(this.#items);
    return limit > 0 ? structuredClone(this.#items.slice(-limit)) : [];
  }

  async addItems(items: ConversationItem[], options: AddItemsOptions = {}): Promise<void> {
    const { operationId } = options;
    if (operationId !== undefined) {
      if (this.#operations.has(operationId)) return;
      this.#operations.add(operationId);
      if (this.#operations.size > REMEMBERED_OPERATIONS) {
        this.#operations.delete(this.#operations.values().next().value as string);
      }
    }
    this.#items.push(...structuredClone(items));
  }

  async popItem(): Promise<ConversationItem | undefined> {
    return this.#items.pop();
  }

  async clearSession(): Promise<void> {
    this.#items = [];
  }
}
