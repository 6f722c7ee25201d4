import type { BackgroundRunStore } from './background-runs.js';
import type { CounterStore, LeaseStore } from './coordination.js';
import type { ConversationSearch, MemoryStore } from './memories.js';
import type { RunEventLog } from './run-events.js';
import type { ApprovalStore, CheckpointStore } from './runs.js';
import type { SessionStore } from './sessions.js';
import type { ArtifactStore, StateStore } from './state.js';

/** The storage backends. */
export type StorageDriver = 'sqlite' | 'postgres' | 'mysql' | 'memory';

/** How to open a store. Everything is optional: the default is SQLite at `./.corvid/corvid.db`. */
export interface StoreOptions {
  /** Inferred from `url` when absent (`postgres://`, `mysql://`, `mariadb://`, `sqlite:`, `memory:`), else `sqlite`. */
  driver?: StorageDriver;
  /** Connection URL (postgres / mysql), or `sqlite:<path>` / `file:<path>`. */
  url?: string;
  /** SQLite file; default `./.corvid/corvid.db` (directory created on first use); `:memory:` for a private in-memory database. */
  path?: string;
  /** Postgres only: the schema to use (created when missing); default the connection's search_path (`public`). */
  schema?: string;
  /** Postgres / MySQL: connections in the pool. Default 10. */
  poolSize?: number;
  /** SQLite: how long to wait for a lock held by another process before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * SQLite: path of better-sqlite3's compiled module (`better_sqlite3.node`) when it is not where
   * the package looks for it (bundled apps). Default: `CORVID_SQLITE_BINDING`, else the package's own.
   */
  nativeBinding?: string;
  /** Postgres / MySQL: connection timeout. Default 10000 ms. */
  connectTimeoutMs?: number;
  /** The clock used for timestamps (tests). */
  now?: () => Date;
}

/** What an open store says about itself. */
export interface StoreInfo {
  driver: StorageDriver;
  /** File or URL, password masked. */
  location: string;
  /** Schema version the database is at. */
  schemaVersion: number;
}

/**
 * Durable state behind one interface: sessions with their entries, key-value state, artifacts,
 * long-term memories, conversation search, run checkpoints, approvals, counters, leases, and
 * submitted runs with their event logs.
 * Open one with `openStore()`; close it when done.
 * @example
 * const store = await openStore({ driver: 'sqlite', path: './.corvid/corvid.db' });
 * const session = await store.sessions.create({ agent: 'helper' });
 * await store.sessions.append(session.id, { message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
 * const history = await store.sessions.messages(session.id);
 * await store.close();
 */
export interface Store {
  readonly info: StoreInfo;
  readonly sessions: SessionStore;
  readonly state: StateStore;
  readonly artifacts: ArtifactStore;
  readonly memories: MemoryStore;
  readonly conversations: ConversationSearch;
  readonly checkpoints: CheckpointStore;
  readonly approvals: ApprovalStore;
  /** Fixed-window counters shared by every process on the database (rate limits across instances). */
  readonly counters: CounterStore;
  /** Named leases with an expiry (one instance of several does a piece of work). */
  readonly leases: LeaseStore;
  /** Submitted (background) runs: what was asked, where each stands, the cancel flag. */
  readonly backgroundRuns: BackgroundRunStore;
  /** The numbered event log of each submitted run, read by streams on any instance. */
  readonly runEvents: RunEventLog;
  /** Releases connections / the file handle. Idempotent. */
  close(): Promise<void>;
}
