import { loadDriver } from '../errors.js';
import type { SqlClient } from '../sql/sql-client.js';
import { openSqlStore, type SqlStore } from '../sql/sql-store.js';

/** The part of a PGlite instance the store uses. */
export interface PGliteDatabase {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  transaction<T>(
    work: (tx: { query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }> }) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link openPGliteStore}: a directory to persist to, or a PGlite instance you own. */
export type PGliteStoreOptions =
  | {
      /** Where the database lives (created if missing); `memory://` keeps it in memory. Default `./.parley/memory`. */
      dataDir?: string;
      db?: never;
    }
  | {
      /** A PGlite instance you opened (and close yourself). */
      db: PGliteDatabase;
      dataDir?: never;
    };

export const DEFAULT_PGLITE_DIR = './.parley/memory';

function clientOf(db: PGliteDatabase): SqlClient {
  return {
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      (await db.query<Row>(text, params ? [...params] : undefined)).rows,
    transaction: (work) =>
      db.transaction((tx) =>
        work(
          async <Row>(text: string, params?: readonly unknown[]) =>
            (await tx.query<Row>(text, params ? [...params] : undefined)).rows,
        ),
      ),
  };
}

/**
 * Opens the embedded default store: PostgreSQL compiled to WASM (`@electric-sql/pglite`), in this process,
 * persisted to `dataDir`: durable memory with no server, the same SQL as {@link openPostgresStore}. One
 * process at a time may open a directory; several workers share a PostgreSQL or Redis store instead.
 */
export async function openPGliteStore(options: PGliteStoreOptions = {}): Promise<SqlStore> {
  if (options.db) {
    return openSqlStore(clientOf(options.db), 'PGliteStore', async () => {});
  }
  const { PGlite } = await loadDriver(
    '@electric-sql/pglite',
    () => import('@electric-sql/pglite'),
    'PGliteStore',
  );
  const db = (await PGlite.create(options.dataDir ?? DEFAULT_PGLITE_DIR)) as unknown as PGliteDatabase;
  return openSqlStore(clientOf(db), 'PGliteStore', () => db.close());
}
