import type BetterSqlite3 from 'better-sqlite3';

import { StorageError } from '../../errors/storage-error.js';
import type { SqlClient, SqlValue } from '../sql/sql-client.js';

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<unknown[]>;

/** Loads better-sqlite3 only when the SQLite driver is used. */
export async function loadSqlite(): Promise<typeof BetterSqlite3> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (err) {
    throw new StorageError(
      'The SQLite storage driver needs the package "better-sqlite3" (version 12), which could not be loaded: install it with "npm install better-sqlite3@12" ' +
        `(${(err as Error).message})`,
      { kind: 'driver_missing', cause: err },
    );
  }
}

/**
 * True when better-sqlite3's compiled module could not be loaded: never built (`npm install
 * --ignore-scripts`, a failed build), built for another Node.js version, or not at the given path.
 */
function isNativeModuleError(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = (err as Error)?.message ?? '';
  return (
    /Could not locate the bindings file|NODE_MODULE_VERSION|compiled against a different Node\.js version|better_sqlite3\.node/.test(
      message,
    ) ||
    code === 'ERR_DLOPEN_FAILED' ||
    (code === 'MODULE_NOT_FOUND' && /\.node\b/.test(message))
  );
}

/**
 * One line with the fix for a native module that failed to load, instead of the loader's list
 * of every path it tried; `undefined` for other errors.
 */
export function nativeModuleError(err: unknown): StorageError | undefined {
  if (!isNativeModuleError(err)) return undefined;
  const first = ((err as Error)?.message ?? '').split('\n')[0]!;
  const detail = /Could not locate the bindings file/.test(first) ? 'no compiled module found' : first.slice(0, 200);
  return new StorageError(
    `The SQLite driver's native module (better-sqlite3) is missing or was built for another Node.js version (${detail}; this is Node ${process.version}, module ABI ${process.versions.modules}): ` +
      'run "npm rebuild better-sqlite3" where Corvid is installed (it compiles when no prebuilt binary fits, which needs Python and a C++ compiler)',
    { kind: 'driver_missing', cause: err },
  );
}

/** Turns a better-sqlite3 error into a StorageError that names the file. */
export function sqliteError(err: unknown, location: string, busyTimeoutMs: number): unknown {
  if (StorageError.isInstance(err)) return err;
  const native = nativeModuleError(err);
  if (native) return native;
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = (err as Error)?.message ?? String(err);
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new StorageError(
      `${location} is not a valid SQLite database (corrupted, or another kind of file): ${message}. It was not modified.`,
      {
        kind: 'corrupt',
        location,
        cause: err,
      },
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StorageError(
      `${location} is locked by another process or connection (waited ${busyTimeoutMs} ms). Try again, or stop whatever holds it; raise busyTimeoutMs (storage.busy_timeout_ms in corvid.yaml) to wait longer.`,
      { kind: 'locked', location, cause: err },
    );
  }
  if (
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_PERM') ||
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_IOERR')
  ) {
    return new StorageError(`Cannot use the SQLite database ${location}: ${message}`, { kind: 'unavailable', location, cause: err });
  }
  return new StorageError(`SQLite error in ${location}: ${message}`, { kind: 'failed', location, cause: err });
}

const bind = (params: SqlValue[]): unknown[] =>
  params.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));

/** An in-process queue for one database file. */
interface FileLock {
  tail: Promise<void>;
  pending: number;
}

const locks = new Map<string, FileLock>();

/**
 * A better-sqlite3 connection behind the async `SqlClient` interface. Statements are cached.
 *
 * better-sqlite3 is synchronous: a connection waiting for SQLite's lock blocks the whole thread,
 * so inside one process a transaction that awaits between statements must never meet another
 * connection's statement. Every connection to the same file in this process therefore shares one
 * queue: a transaction holds it until COMMIT and other statements wait their turn (they would
 * otherwise also run inside the transaction on a shared connection). Across processes, SQLite's
 * write lock and the busy timeout serialise writers.
 */
export class SqliteClient implements SqlClient {
  private readonly statements = new Map<string, Statement>();
  private readonly lock: FileLock;

  constructor(
    readonly db: Database,
    readonly location: string,
    readonly busyTimeoutMs: number,
  ) {
    const key = db.memory ? Symbol() : location;
    let lock = typeof key === 'string' ? locks.get(key) : undefined;
    if (!lock) {
      lock = { tail: Promise.resolve(), pending: 0 };
      if (typeof key === 'string') locks.set(key, lock);
    }
    this.lock = lock;
  }

  /** A cached prepared statement. */
  prepare(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      try {
        s = this.db.prepare(sql) as Statement;
      } catch (err) {
        throw this.error(err);
      }
      this.statements.set(sql, s);
    }
    return s;
  }

  error(err: unknown): unknown {
    return sqliteError(err, this.location, this.busyTimeoutMs);
  }

  allSync<T>(sql: string, params: SqlValue[] = []): T[] {
    try {
      return this.prepare(sql).all(...bind(params)) as T[];
    } catch (err) {
      throw this.error(err);
    }
  }

  columnSync<T>(sql: string, params: SqlValue[] = []): T[] {
    try {
      let s = this.statements.get(`column:${sql}`);
      if (!s) {
        s = (this.db.prepare(sql) as Statement).pluck();
        this.statements.set(`column:${sql}`, s);
      }
      return s.all(...bind(params)) as T[];
    } catch (err) {
      throw this.error(err);
    }
  }

  runSync(sql: string, params: SqlValue[] = []): number {
    try {
      return this.prepare(sql).run(...bind(params)).changes;
    } catch (err) {
      throw this.error(err);
    }
  }

  /** Runs `fn` with the file's queue to itself (at once when nothing is queued). */
  async serial<T>(fn: () => T | Promise<T>): Promise<T> {
    const lock = this.lock;
    if (lock.pending === 0) return fn();
    lock.pending++;
    const previous = lock.tail;
    let release!: () => void;
    lock.tail = new Promise((r) => (release = r));
    try {
      await previous;
      return await fn();
    } finally {
      lock.pending--;
      release();
    }
  }

  all<T>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return this.serial(() => this.allSync<T>(sql, params));
  }

  column<T>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return this.serial(() => this.columnSync<T>(sql, params));
  }

  run(sql: string, params?: SqlValue[]): Promise<number> {
    return this.serial(() => this.runSync(sql, params));
  }

  /** Runs a synchronous function in a `BEGIN IMMEDIATE` transaction (the fast path for appends). */
  immediate<T>(fn: () => T): Promise<T> {
    return this.serial(() => {
      try {
        return this.db.transaction(fn).immediate();
      } catch (err) {
        throw this.error(err);
      }
    });
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    return this.lockedTransaction(fn);
  }

  private async lockedTransaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    const lock = this.lock;
    lock.pending++;
    const previous = lock.tail;
    let release!: () => void;
    lock.tail = new Promise((r) => (release = r));
    try {
      await previous;
      this.runSync('BEGIN IMMEDIATE');
      const tx: SqlClient = {
        all: async <R>(sql: string, params?: SqlValue[]) => this.allSync<R>(sql, params),
        column: async <R>(sql: string, params?: SqlValue[]) => this.columnSync<R>(sql, params),
        run: async (sql: string, params?: SqlValue[]) => this.runSync(sql, params),
        transaction: (inner) => inner(tx),
      };
      try {
        const result = await fn(tx);
        this.runSync('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      lock.pending--;
      release();
    }
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}
