import type { SqlClient } from './sql-client.js';

/**
 * The schema, one step per version, applied in order on first use. Append a step to change it; never
 * edit one that has shipped. Items are JSON text (not jsonb: jsonb rejects `\u0000` and reorders keys).
 */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE parley_items (
       session_id text NOT NULL,
       seq bigint GENERATED ALWAYS AS IDENTITY,
       item text NOT NULL,
       PRIMARY KEY (session_id, seq)
     )`,
    `CREATE TABLE parley_operations (
       session_id text NOT NULL,
       operation_id text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (session_id, operation_id)
     )`,
    `CREATE TABLE parley_runs (
       run_id text PRIMARY KEY,
       state text NOT NULL,
       claimed_by text,
       claimed_until bigint,
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
  ],
];

/** An advisory lock key that serialises migrations across processes sharing one database. */
const MIGRATION_LOCK = 7_362_115_025;

/** Brings the schema to the latest version, once, even when several processes start together. */
export async function migrate(client: SqlClient): Promise<number> {
  return client.transaction(async (query) => {
    await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await query(
      `CREATE TABLE IF NOT EXISTS parley_schema_migrations (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const [row] = await query<{ version: number | null }>(
      'SELECT max(version) AS version FROM parley_schema_migrations',
    );
    const current = Number(row?.version ?? 0);
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      for (const statement of MIGRATIONS[version - 1] ?? []) await query(statement);
      await query('INSERT INTO parley_schema_migrations (version) VALUES ($1)', [version]);
    }
    return MIGRATIONS.length;
  });
}
