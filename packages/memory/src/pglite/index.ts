export type { SqlClient } from '../sql/sql-client.js';
export { SqlStore } from '../sql/sql-store.js';
export {
  DEFAULT_PGLITE_DIR,
  openPGliteStore,
  type PGliteDatabase,
  type PGliteStoreOptions,
} from './pglite-store.js';
