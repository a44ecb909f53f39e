import pg from 'pg';
import { describe, expect, inject, test } from 'vitest';
import { MIGRATIONS, openPostgresStore } from '../src/postgres/index.js';
import { createDatabase } from './support/backends.js';

const server = inject('postgresUrl');
const skip = server ? undefined : inject('postgresSkip');

describe.skipIf(skip !== undefined)(
  `PostgresStore on a real server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    test('first use creates the schema once, even when two workers start together; the version is recorded', async () => {
      const url = await createDatabase(server as string);
      const [a, b] = await Promise.all([
        openPostgresStore({ connectionString: url, max: 2 }),
        openPostgresStore({ connectionString: url, max: 2 }),
      ]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const versions = await client.query('SELECT version FROM parley_schema_migrations ORDER BY version');
        expect(versions.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
        expect(await b.migrate()).toBe(MIGRATIONS.length);
        const tables = await client.query(
          "SELECT tablename FROM pg_tables WHERE tablename LIKE 'parley_%' ORDER BY tablename",
        );
        expect(tables.rows.map((row) => row.tablename)).toEqual([
          'parley_items',
          'parley_operations',
          'parley_runs',
          'parley_schema_migrations',
        ]);
      } finally {
        await client.end();
        await Promise.all([a.close(), b.close()]);
      }
    });

    test('"the last N items of a session" is answered from the index, not by scanning the table', async () => {
      const url = await createDatabase(server as string);
      const store = await openPostgresStore({ connectionString: url, max: 1 });
      await store.addItems('s', [{ type: 'message', role: 'user', content: 'x' }]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // Whatever the table's size, the plan may read the index backwards and stop after N rows: no scan, no sort.
        await client.query('SET enable_seqscan = off');
        await client.query('SET enable_bitmapscan = off');
        await client.query('SET enable_sort = off');
        const plan = await client.query(
          "EXPLAIN SELECT item FROM parley_items WHERE session_id = 's' ORDER BY seq DESC LIMIT 20",
        );
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Index Scan Backward using parley_items_pkey/);
        expect(text).not.toMatch(/Sort|Seq Scan/);
      } finally {
        await client.end();
        await store.close();
      }
    });

    test('a batch that fails halfway leaves nothing behind (one transaction)', async () => {
      const url = await createDatabase(server as string);
      const store = await openPostgresStore({ connectionString: url, max: 1 });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // A trigger that rejects the second item of a batch stands in for a failure mid-write.
        await client.query(`
        CREATE FUNCTION reject_poison() RETURNS trigger AS $$
        BEGIN IF NEW.item LIKE '%poison%' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER poison BEFORE INSERT ON parley_items FOR EACH ROW EXECUTE FUNCTION reject_poison();`);
        await expect(
          store.addItems(
            's',
            [
              { type: 'message', role: 'user', content: 'fine' },
              { type: 'message', role: 'user', content: 'poison' },
            ],
            { operationId: 'op' },
          ),
        ).rejects.toThrow(/poisoned/);
        expect(await store.getItems('s')).toEqual([]);
        // The operation id was rolled back too: the retry is applied.
        await client.query('DROP TRIGGER poison ON parley_items');
        await store.addItems('s', [{ type: 'message', role: 'user', content: 'fine' }], {
          operationId: 'op',
        });
        expect(await store.getItems('s')).toHaveLength(1);
      } finally {
        await client.end();
        await store.close();
      }
    });
  },
);
