/** What the SQL store needs of a PostgreSQL connection: PGlite and `pg` both fit behind it. */
export interface SqlClient {
  /** Runs one statement with `$1`-style parameters; resolves to its rows. */
  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (query: SqlClient['query']) => Promise<T>): Promise<T>;
}
