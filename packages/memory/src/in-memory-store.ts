import type { AddItemsOptions, ConversationItem } from '@parley/core';
import { checkId, checkLimit, storeClosed } from './errors.js';
import type { MemoryStore, RunClaim } from './store.js';

/** A paused run as an {@link InMemoryStore} keeps it. */
export interface InMemoryRun {
  state: string;
  claim: RunClaim | undefined;
}

/** What an {@link InMemoryStore} holds; share one between stores to model several processes on one database. */
export class InMemoryData {
  readonly sessions = new Map<string, { items: string[]; operations: Set<string> }>();
  readonly runs = new Map<string, InMemoryRun>();
}

/** A {@link MemoryStore} in this process's memory: tests and demos. Items are kept as JSON text, like the others. */
export class InMemoryStore implements MemoryStore {
  readonly #data: InMemoryData;
  #closed = false;

  constructor(data: InMemoryData = new InMemoryData()) {
    this.#data = data;
  }

  async getItems(sessionId: string, limit?: number): Promise<ConversationItem[]> {
    this.#check(sessionId);
    checkLimit(limit);
    const items = this.#data.sessions.get(sessionId)?.items ?? [];
    const slice = limit === undefined ? items : limit === 0 ? [] : items.slice(-limit);
    return slice.map((text) => JSON.parse(text) as ConversationItem);
  }

  async addItems(sessionId: string, items: ConversationItem[], options: AddItemsOptions = {}): Promise<void> {
    this.#check(sessionId);
    const encoded = items.map((item) => JSON.stringify(item));
    let session = this.#data.sessions.get(sessionId);
    if (!session) {
      session = { items: [], operations: new Set() };
      this.#data.sessions.set(sessionId, session);
    }
    if (options.operationId !== undefined) {
      if (session.operations.has(options.operationId)) return;
      session.operations.add(options.operationId);
    }
    session.items.push(...encoded);
  }

  async popItem(sessionId: string): Promise<ConversationItem | undefined> {
    this.#check(sessionId);
    const text = this.#data.sessions.get(sessionId)?.items.pop();
    return text === undefined ? undefined : (JSON.parse(text) as ConversationItem);
  }

  async clearSession(sessionId: string): Promise<void> {
    this.#check(sessionId);
    const session = this.#data.sessions.get(sessionId);
    if (session) session.items = [];
  }

  async saveRun(runId: string, state: string): Promise<void> {
    this.#checkRun(runId);
    this.#data.runs.set(runId, { state, claim: undefined });
  }

  async claimRun(runId: string, claim: RunClaim, now: number): Promise<string | undefined> {
    this.#checkRun(runId);
    const run = this.#data.runs.get(runId);
    if (!run || (run.claim && run.claim.leaseUntil >= now)) return undefined;
    run.claim = { ...claim };
    return run.state;
  }

  async finishRun(runId: string, owner: string, state: string | undefined): Promise<boolean> {
    this.#checkRun(runId);
    const run = this.#data.runs.get(runId);
    if (run?.claim?.owner !== owner) return false;
    if (state === undefined) this.#data.runs.delete(runId);
    else this.#data.runs.set(runId, { state, claim: undefined });
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #check(sessionId: string): void {
    if (this.#closed) throw storeClosed('InMemoryStore');
    checkId('sessionId', sessionId);
  }

  #checkRun(runId: string): void {
    if (this.#closed) throw storeClosed('InMemoryStore');
    checkId('runId', runId);
  }
}
