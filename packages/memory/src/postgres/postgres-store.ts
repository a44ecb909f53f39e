import { loadDriver } from '../errors.js';
import type { SqlClient } from '../sql/sql-client.js';
import { openSqlStore, type SqlStore } from '../sql/sql-store.js';

/** One connection checked out of a {@link PostgresPool}. */
export interface PostgresPoolClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  release(error?: Error): void;
}

/** The part of a `pg` Pool the store uses: pass your own `new pg.Pool(...)`. */
export interface PostgresPool {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
}

/** What the store opens its own `pg` Pool with (any other `pg` PoolConfig field is passed on too). */
export interface PostgresConnectionOptions {
  /** E.g. `postgres://user:password@db.internal:5432/app`. */
  connectionString?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  /** `true`, or the TLS options of `pg`. */
  ssl?: boolean | Record<string, unknown>;
  /** Most connections the pool opens. `pg`'s default is 10. */
  max?: number;
  /** Give up on opening a connection after this many ms. */
  connectionTimeoutMillis?: number;
  /** Close a connection idle for this many ms. */
  idleTimeoutMillis?: number;
  [option: string]: unknown;
}

/** Options of {@link openPostgresStore}: a `pg` Pool you own (the store never ends it), or what to open one with. */
export type PostgresStoreOptions = { pool: PostgresPool } | (PostgresConnectionOptions & { pool?: never });

function clientOf(pool: PostgresPool): SqlClient {
  return {
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      (await pool.query(text, params ? [...params] : undefined)).rows as Row[],
    async transaction(work) {
      const client = await pool.connect();
      let failure: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(
          async <Row>(text: string, params?: readonly unknown[]) =>
            (await client.query(text, params ? [...params] : undefined)).rows as Row[],
        );
        await client.query('COMMIT');
        return result;
      } catch (error) {
        failure = error;
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        // A connection whose rollback may have failed is discarded, not reused.
        client.release(failure instanceof Error ? failure : undefined);
      }
    },
  };
}

/**
 * Opens a store on a PostgreSQL server through `pg`. The schema is created or migrated on first use
 * (versioned, serialised across processes by an advisory lock); items are indexed for "the last N of a
 * session"; a multi-item write is one transaction. Many workers may share one database.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<SqlStore> {
  if (options.pool) {
    return openSqlStore(clientOf(options.pool as PostgresPool), 'PostgresStore', async () => {});
  }
  const pg = await loadDriver('pg', () => import('pg'), 'PostgresStore');
  const pool = new (pg.default?.Pool ?? pg.Pool)(options);
  // An idle client's error (a restarted server) is reported on the next query; it must not crash the process.
  pool.on('error', () => {});
  return openSqlStore(clientOf(pool), 'PostgresStore', () => pool.end());
}
