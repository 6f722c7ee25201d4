/** What the SQL drivers share, for the knowledge stores built on the same connections. */
export type { SqlClient, SqlValue } from './sql-client.js';
