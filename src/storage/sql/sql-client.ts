import type { MemoryFilter, MessageSearchOptions } from '../../types/storage/memories.js';
import type { EntryRow, MemoryRow } from '../shared/rows.js';

/** A value bound to a `?` placeholder. */
export type SqlValue = string | number | null | Uint8Array;

/**
 * The little the shared SQL code needs from a database connection. Statements use `?`
 * placeholders on every backend (the Postgres client rewrites them to `$n`).
 */
export interface SqlClient {
  /** Rows of a query. */
  all<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /** The first column of each row of a query (cheaper than `all` for one-column reads). */
  column<T = unknown>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /** Runs a statement; resolves with the number of rows it matched. */
  run(sql: string, params?: SqlValue[]): Promise<number>;
  /** Runs `fn` in one write transaction on one connection; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
}

/** One entry ready to insert. */
export interface EntryInsert {
  type: string;
  agent: string | null;
  role: string | null;
  run_id: string | null;
  message: string | null;
  usage_json: string | null;
  data: string | null;
  search_text: string | null;
}

/** A message found by conversation search. */
export interface EntryTextRow extends Pick<EntryRow, 'seq' | 'agent' | 'role' | 'created_at'> {
  session_id: string;
  search_text: string;
}

/** Memory filters the search pushes down into SQL. */
export type MemorySearchFilter = Pick<MemoryFilter, 'category' | 'minImportance'>;

/**
 * What differs between SQL backends: upsert syntax, row locking, the atomic append and the
 * full-text machinery. Everything else is shared SQL (see sql-store.ts).
 */
export interface SqlBackend {
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  readonly db: SqlClient;
  /** File or URL, password masked. */
  readonly location: string;
  /** `' FOR UPDATE'` where row locks exist, `''` on SQLite (whose write transactions are exclusive). */
  readonly forUpdate: string;
  /** INSERT … that updates `update` columns when `conflict` columns already exist. */
  upsert(table: string, columns: string[], conflict: string[], update: string[]): string;
  /** INSERT … that does nothing when `conflict` columns already exist. */
  insertIgnore(table: string, columns: string[], conflict: string[]): string;
  isUniqueViolation(error: unknown): boolean;
  /**
   * Appends entries atomically with the next seqs; resolves with the seqs, or undefined when the
   * session does not exist or its last seq is not `expectedLastSeq`.
   */
  appendEntries(sessionId: string, rows: EntryInsert[], now: number, expectedLastSeq?: number): Promise<number[] | undefined>;
  /** Like `appendEntries`, inside the caller's open transaction `tx` (committed or rolled back with it). */
  appendInTransaction(
    tx: SqlClient,
    sessionId: string,
    rows: EntryInsert[],
    now: number,
    expectedLastSeq?: number,
  ): Promise<number[] | undefined>;
  /** Memories of one scope matching any term, best first. */
  searchMemories(
    scope: { userId: string; agent: string },
    terms: string[],
    filter: MemorySearchFilter,
    limit: number,
  ): Promise<{ row: MemoryRow; score: number }[]>;
  /** Messages matching any term, best first. */
  searchMessages(terms: string[], options: MessageSearchOptions, limit: number): Promise<{ row: EntryTextRow; score: number }[]>;
  close(): Promise<void>;
}
