import type BetterSqlite3 from 'better-sqlite3';

import { KnowledgeError } from '../../../errors/knowledge-error.js';
import { SqliteClient, sqliteError } from '../../../storage/sqlite/index.js';
import type { VecStatus } from './sqlite-vec-loader.js';

type Statement = BetterSqlite3.Statement<unknown[]>;

/**
 * One connection of a SQLite knowledge store, shared by its indexes. Statements are cached. Every
 * read and write goes through the storage driver's per-file queue, so in one process a knowledge
 * write never meets a storage transaction that is awaiting between statements on the same file.
 */
export class SqliteKnowledgeContext {
  private readonly statements = new Map<string, Statement>();
  readonly client: SqliteClient;

  constructor(
    readonly db: BetterSqlite3.Database,
    readonly location: string,
    readonly busyTimeoutMs: number,
    readonly vec: VecStatus,
  ) {
    this.client = new SqliteClient(db, location, busyTimeoutMs);
  }

  /** A cached prepared statement. */
  prepare(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql) as Statement;
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` (synchronous reads) in the file's queue; SQLite errors become StorageErrors naming the file. */
  read<T>(fn: () => T): Promise<T> {
    return this.client.serial(() => this.guard(fn));
  }

  /** Runs `fn` in one `BEGIN IMMEDIATE` transaction: everything it wrote is rolled back when it throws. */
  write<T>(fn: () => T): Promise<T> {
    return this.client.serial(() => this.guard(() => this.db.transaction(fn).immediate()));
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (KnowledgeError.isInstance(err)) throw err;
      throw sqliteError(err, this.location, this.busyTimeoutMs);
    }
  }

  close(): void {
    this.statements.clear();
  }
}
