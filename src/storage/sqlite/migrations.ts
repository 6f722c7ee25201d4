import type { Migration } from '../sql/migrate.js';

const FTS = "tokenize = 'unicode61 remove_diacritics 2'";

/**
 * SQLite schema. Timestamps are epoch milliseconds; JSON is stored as TEXT exactly as written.
 * Full-text search uses FTS5 tables over external content. Memories are kept in sync by
 * triggers; entries are indexed by the append itself, one INSERT … SELECT per batch (several times
 * faster than a per-row trigger), and removed from the index by a delete trigger.
 * Released migrations are never edited: add a new one (and bump SCHEMA_VERSION) instead.
 */
export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial',
    statements: [
      `CREATE TABLE corvid_sessions (
        id TEXT NOT NULL PRIMARY KEY, agent TEXT NOT NULL, active_agent TEXT NOT NULL, user_id TEXT,
        metadata TEXT NOT NULL, last_seq INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      'CREATE INDEX corvid_sessions_created ON corvid_sessions (created_at, id)',
      'CREATE INDEX corvid_sessions_agent ON corvid_sessions (agent, created_at, id)',
      'CREATE INDEX corvid_sessions_user ON corvid_sessions (user_id, created_at, id)',
      `CREATE TABLE corvid_entries (
        id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, agent TEXT, role TEXT,
        run_id TEXT, message TEXT, usage_json TEXT, data TEXT, search_text TEXT, created_at INTEGER NOT NULL,
        UNIQUE (session_id, seq))`,
      `CREATE VIRTUAL TABLE corvid_entries_fts USING fts5(search_text, content = 'corvid_entries', content_rowid = 'id', ${FTS})`,
      `CREATE TRIGGER corvid_entries_ad AFTER DELETE ON corvid_entries WHEN old.search_text IS NOT NULL BEGIN
        INSERT INTO corvid_entries_fts (corvid_entries_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text); END`,
      `CREATE TABLE corvid_state (
        scope TEXT NOT NULL, owner TEXT NOT NULL, state_key TEXT NOT NULL, value TEXT NOT NULL, updated_at INTEGER NOT NULL,
        PRIMARY KEY (scope, owner, state_key)) WITHOUT ROWID`,
      `CREATE TABLE corvid_artifacts (
        session_id TEXT NOT NULL, name TEXT NOT NULL, version INTEGER NOT NULL, mime_type TEXT NOT NULL, size INTEGER NOT NULL,
        created_at INTEGER NOT NULL, content BLOB NOT NULL, PRIMARY KEY (session_id, name, version))`,
      `CREATE TABLE corvid_memories (
        id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, agent TEXT NOT NULL, mem_key TEXT NOT NULL, value TEXT NOT NULL,
        category TEXT, tags TEXT NOT NULL, importance INTEGER NOT NULL, search_text TEXT NOT NULL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (user_id, agent, mem_key))`,
      'CREATE INDEX corvid_memories_recent ON corvid_memories (user_id, agent, updated_at)',
      'CREATE TABLE corvid_memory_tags (memory_id INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (memory_id, tag)) WITHOUT ROWID',
      'CREATE INDEX corvid_memory_tags_tag ON corvid_memory_tags (tag, memory_id)',
      `CREATE VIRTUAL TABLE corvid_memories_fts USING fts5(search_text, content = 'corvid_memories', content_rowid = 'id', ${FTS})`,
      `CREATE TRIGGER corvid_memories_ai AFTER INSERT ON corvid_memories BEGIN
        INSERT INTO corvid_memories_fts (rowid, search_text) VALUES (new.id, new.search_text); END`,
      `CREATE TRIGGER corvid_memories_ad AFTER DELETE ON corvid_memories BEGIN
        INSERT INTO corvid_memories_fts (corvid_memories_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text); END`,
      `CREATE TRIGGER corvid_memories_au AFTER UPDATE ON corvid_memories BEGIN
        INSERT INTO corvid_memories_fts (corvid_memories_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
        INSERT INTO corvid_memories_fts (rowid, search_text) VALUES (new.id, new.search_text); END`,
      `CREATE TABLE corvid_runs (
        run_id TEXT NOT NULL PRIMARY KEY, session_id TEXT, agent TEXT NOT NULL, status TEXT NOT NULL, checkpoints INTEGER NOT NULL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER)`,
      'CREATE INDEX corvid_runs_status ON corvid_runs (status, updated_at)',
      'CREATE INDEX corvid_runs_session ON corvid_runs (session_id)',
      `CREATE TABLE corvid_checkpoints (
        run_id TEXT NOT NULL, seq INTEGER NOT NULL, status TEXT NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL,
        expires_at INTEGER, PRIMARY KEY (run_id, seq))`,
      'CREATE INDEX corvid_checkpoints_expiry ON corvid_checkpoints (expires_at)',
      `CREATE TABLE corvid_approvals (
        id TEXT NOT NULL PRIMARY KEY, run_id TEXT NOT NULL, session_id TEXT, tool_call_id TEXT NOT NULL, tool_name TEXT NOT NULL,
        args TEXT NOT NULL, prompt TEXT, status TEXT NOT NULL, reason TEXT, created_at INTEGER NOT NULL, answered_at INTEGER,
        UNIQUE (run_id, tool_call_id))`,
      'CREATE INDEX corvid_approvals_status ON corvid_approvals (status, created_at)',
      'CREATE INDEX corvid_approvals_session ON corvid_approvals (session_id)',
    ],
  },
  {
    version: 2,
    name: 'counters and leases',
    statements: [
      // Totals are integers (INTEGER is 64-bit); expires_at is when the window ends.
      'CREATE TABLE corvid_counters (counter_key TEXT NOT NULL PRIMARY KEY, total INTEGER NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID',
      'CREATE INDEX corvid_counters_expiry ON corvid_counters (expires_at)',
      'CREATE TABLE corvid_leases (name TEXT NOT NULL PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID',
      'CREATE INDEX corvid_leases_expiry ON corvid_leases (expires_at)',
    ],
  },
  {
    version: 3,
    name: 'background runs and run events',
    statements: [
      `CREATE TABLE corvid_background_runs (
        run_id TEXT NOT NULL PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, session_id TEXT, owner TEXT, webhook TEXT,
        status TEXT NOT NULL, result TEXT, error TEXT, cancel_requested INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0,
        worker TEXT, run_at INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER)`,
      'CREATE INDEX corvid_background_runs_status ON corvid_background_runs (status, run_at)',
      `CREATE TABLE corvid_run_events (
        run_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, seq)) WITHOUT ROWID`,
    ],
  },
];
