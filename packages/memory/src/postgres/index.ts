export { MIGRATIONS } from '../sql/migrations.js';
export type { SqlClient } from '../sql/sql-client.js';
export { SqlStore } from '../sql/sql-store.js';
export {
  openPostgresStore,
  type PostgresConnectionOptions,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresStoreOptions,
} from './postgres-store.js';
