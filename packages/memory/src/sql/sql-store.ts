import type { AddItemsOptions, ConversationItem } from '@parley/core';
import { checkId, checkLimit, storeClosed } from '../errors.js';
import type { MemoryStore, RunClaim } from '../store.js';
import { migrate } from './migrations.js';
import type { SqlClient } from './sql-client.js';

/**
 * A {@link MemoryStore} on PostgreSQL's SQL, shared by the PGlite and PostgreSQL stores. A write takes a
 * per-session advisory lock, so concurrent writers land whole batches, one after the other.
 */
export class SqlStore implements MemoryStore {
  readonly #client: SqlClient;
  readonly #name: string;
  readonly #release: () => Promise<void>;
  #ready: Promise<unknown> | undefined;
  #closed: Promise<void> | undefined;

  constructor(client: SqlClient, name: string, release: () => Promise<void>) {
    this.#client = client;
    this.#name = name;
    this.#release = release;
  }

  async getItems(sessionId: string, limit?: number): Promise<ConversationItem[]> {
    checkLimit(limit);
    await this.#use('sessionId', sessionId);
    if (limit === 0) return [];
    const rows =
      limit === undefined
        ? await this.#client.query<{ item: string }>(
            'SELECT item FROM parley_items WHERE session_id = $1 ORDER BY seq',
            [sessionId],
          )
        : await this.#client.query<{ item: string }>(
            `SELECT item FROM (
               SELECT item, seq FROM parley_items WHERE session_id = $1 ORDER BY seq DESC LIMIT $2
             ) AS latest ORDER BY seq`,
            [sessionId, limit],
          );
    return rows.map((row) => JSON.parse(row.item) as ConversationItem);
  }

  async addItems(sessionId: string, items: ConversationItem[], options: AddItemsOptions = {}): Promise<void> {
    await this.#use('sessionId', sessionId);
    const encoded = items.map((item) => JSON.stringify(item));
    await this.#client.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [sessionId]);
      if (options.operationId !== undefined) {
        const applied = await query(
          `INSERT INTO parley_operations (session_id, operation_id) VALUES ($1, $2)
           ON CONFLICT DO NOTHING RETURNING 1`,
          [sessionId, options.operationId],
        );
        if (applied.length === 0) return;
      }
      if (encoded.length === 0) return;
      await query(
        'INSERT INTO parley_items (session_id, item) SELECT $1, item FROM unnest($2::text[]) WITH ORDINALITY AS t(item, n) ORDER BY n',
        [sessionId, encoded],
      );
    });
  }

  async popItem(sessionId: string): Promise<ConversationItem | undefined> {
    await this.#use('sessionId', sessionId);
    const rows = await this.#client.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [sessionId]);
      return query<{ item: string }>(
        `DELETE FROM parley_items WHERE session_id = $1 AND seq = (
           SELECT seq FROM parley_items WHERE session_id = $1 ORDER BY seq DESC LIMIT 1
         ) RETURNING item`,
        [sessionId],
      );
    });
    const text = rows[0]?.item;
    return text === undefined ? undefined : (JSON.parse(text) as ConversationItem);
  }

  async clearSession(sessionId: string): Promise<void> {
    await this.#use('sessionId', sessionId);
    await this.#client.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [sessionId]);
      await query('DELETE FROM parley_items WHERE session_id = $1', [sessionId]);
    });
  }

  async saveRun(runId: string, state: string): Promise<void> {
    await this.#use('runId', runId);
    await this.#client.query(
      `INSERT INTO parley_runs (run_id, state) VALUES ($1, $2)
       ON CONFLICT (run_id) DO UPDATE SET state = $2, claimed_by = NULL, claimed_until = NULL, updated_at = now()`,
      [runId, state],
    );
  }

  async claimRun(runId: string, claim: RunClaim, now: number): Promise<string | undefined> {
    await this.#use('runId', runId);
    const rows = await this.#client.query<{ state: string }>(
      `UPDATE parley_runs SET claimed_by = $2, claimed_until = $3, updated_at = now()
       WHERE run_id = $1 AND (claimed_by IS NULL OR claimed_until < $4) RETURNING state`,
      [runId, claim.owner, claim.leaseUntil, now],
    );
    return rows[0]?.state;
  }

  async finishRun(runId: string, owner: string, state: string | undefined): Promise<boolean> {
    await this.#use('runId', runId);
    const rows =
      state === undefined
        ? await this.#client.query(
            'DELETE FROM parley_runs WHERE run_id = $1 AND claimed_by = $2 RETURNING 1',
            [runId, owner],
          )
        : await this.#client.query(
            `UPDATE parley_runs SET state = $3, claimed_by = NULL, claimed_until = NULL, updated_at = now()
             WHERE run_id = $1 AND claimed_by = $2 RETURNING 1`,
            [runId, owner, state],
          );
    return rows.length > 0;
  }

  /** Applies the migrations now instead of on first use; resolves to the schema version. */
  async migrate(): Promise<number> {
    if (this.#closed) throw storeClosed(this.#name);
    this.#ready ??= migrate(this.#client).catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return (await this.#ready) as number;
  }

  close(): Promise<void> {
    this.#closed ??= this.#release();
    return this.#closed;
  }

  async #use(kind: 'sessionId' | 'runId', id: string): Promise<void> {
    if (this.#closed) throw storeClosed(this.#name);
    checkId(kind, id);
    await this.migrate();
  }
}

/**
 * A store on `client` with its schema created or migrated; a failed migration closes the store (`release` frees what
 * the opener made for it) before it is thrown. `name` is the store's class, for errors.
 */
export async function openSqlStore(
  client: SqlClient,
  name: string,
  release: () => Promise<void>,
): Promise<SqlStore> {
  const store = new SqlStore(client, name, release);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
