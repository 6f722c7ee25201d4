import type { Migration } from '../sql/migrate.js';

const TSV = (column: string) => `tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, COALESCE(${column}, ''))) STORED`;

/**
 * Postgres schema. Timestamps are epoch milliseconds (BIGINT); JSON is TEXT exactly as written
 * (jsonb would reorder keys). Full text: generated `tsvector` columns ('simple' configuration:
 * no stemming or stop words, like the other backends) with GIN indexes.
 * Released migrations are never edited: add a new one (and bump SCHEMA_VERSION) instead.
 */
export const POSTGRES_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial',
    statements: [
      `CREATE TABLE corvid_sessions (
        id VARCHAR(191) PRIMARY KEY, agent VARCHAR(191) NOT NULL, active_agent VARCHAR(191) NOT NULL, user_id VARCHAR(191),
        metadata TEXT NOT NULL, last_seq BIGINT NOT NULL DEFAULT 0, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)`,
      'CREATE INDEX corvid_sessions_created ON corvid_sessions (created_at, id)',
      'CREATE INDEX corvid_sessions_agent ON corvid_sessions (agent, created_at, id)',
      'CREATE INDEX corvid_sessions_user ON corvid_sessions (user_id, created_at, id)',
      `CREATE TABLE corvid_entries (
        session_id VARCHAR(191) NOT NULL, seq BIGINT NOT NULL, type VARCHAR(64) NOT NULL, agent VARCHAR(191), role VARCHAR(16),
        run_id VARCHAR(191), message TEXT, usage_json TEXT, data TEXT, search_text TEXT, search_tsv ${TSV('search_text')},
        created_at BIGINT NOT NULL, PRIMARY KEY (session_id, seq))`,
      'CREATE INDEX corvid_entries_search ON corvid_entries USING GIN (search_tsv) WHERE search_text IS NOT NULL',
      `CREATE TABLE corvid_state (
        scope VARCHAR(16) NOT NULL, owner VARCHAR(191) NOT NULL, state_key VARCHAR(255) NOT NULL, value TEXT NOT NULL,
        updated_at BIGINT NOT NULL, PRIMARY KEY (scope, owner, state_key))`,
      `CREATE TABLE corvid_artifacts (
        session_id VARCHAR(191) NOT NULL, name VARCHAR(255) NOT NULL, version INTEGER NOT NULL, mime_type VARCHAR(255) NOT NULL,
        size BIGINT NOT NULL, created_at BIGINT NOT NULL, content BYTEA NOT NULL, PRIMARY KEY (session_id, name, version))`,
      `CREATE TABLE corvid_memories (
        id BIGSERIAL PRIMARY KEY, user_id VARCHAR(191) NOT NULL, agent VARCHAR(191) NOT NULL, mem_key VARCHAR(255) NOT NULL,
        value TEXT NOT NULL, category VARCHAR(191), tags TEXT NOT NULL, importance INTEGER NOT NULL, search_text TEXT NOT NULL,
        search_tsv ${TSV('search_text')}, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE (user_id, agent, mem_key))`,
      'CREATE INDEX corvid_memories_recent ON corvid_memories (user_id, agent, updated_at)',
      'CREATE INDEX corvid_memories_search ON corvid_memories USING GIN (search_tsv)',
      'CREATE TABLE corvid_memory_tags (memory_id BIGINT NOT NULL, tag VARCHAR(100) NOT NULL, PRIMARY KEY (memory_id, tag))',
      'CREATE INDEX corvid_memory_tags_tag ON corvid_memory_tags (tag, memory_id)',
      `CREATE TABLE corvid_runs (
        run_id VARCHAR(191) PRIMARY KEY, session_id VARCHAR(191), agent VARCHAR(191) NOT NULL, status VARCHAR(16) NOT NULL,
        checkpoints INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, expires_at BIGINT)`,
      'CREATE INDEX corvid_runs_status ON corvid_runs (status, updated_at)',
      'CREATE INDEX corvid_runs_session ON corvid_runs (session_id)',
      `CREATE TABLE corvid_checkpoints (
        run_id VARCHAR(191) NOT NULL, seq INTEGER NOT NULL, status VARCHAR(16) NOT NULL, state TEXT NOT NULL,
        created_at BIGINT NOT NULL, expires_at BIGINT, PRIMARY KEY (run_id, seq))`,
      'CREATE INDEX corvid_checkpoints_expiry ON corvid_checkpoints (expires_at)',
      `CREATE TABLE corvid_approvals (
        id VARCHAR(191) PRIMARY KEY, run_id VARCHAR(191) NOT NULL, session_id VARCHAR(191), tool_call_id VARCHAR(191) NOT NULL,
        tool_name VARCHAR(191) NOT NULL, args TEXT NOT NULL, prompt TEXT, status VARCHAR(16) NOT NULL, reason TEXT,
        created_at BIGINT NOT NULL, answered_at BIGINT, UNIQUE (run_id, tool_call_id))`,
      'CREATE INDEX corvid_approvals_status ON corvid_approvals (status, created_at)',
      'CREATE INDEX corvid_approvals_session ON corvid_approvals (session_id)',
    ],
  },
  {
    version: 2,
    name: 'counters and leases',
    statements: [
      // Totals are integers (request / token counts); expires_at is when the window ends.
      'CREATE TABLE corvid_counters (counter_key VARCHAR(255) PRIMARY KEY, total BIGINT NOT NULL, expires_at BIGINT NOT NULL)',
      'CREATE INDEX corvid_counters_expiry ON corvid_counters (expires_at)',
      'CREATE TABLE corvid_leases (name VARCHAR(255) PRIMARY KEY, holder VARCHAR(255) NOT NULL, expires_at BIGINT NOT NULL)',
      'CREATE INDEX corvid_leases_expiry ON corvid_leases (expires_at)',
    ],
  },
  {
    version: 3,
    name: 'background runs and run events',
    statements: [
      `CREATE TABLE corvid_background_runs (
        run_id VARCHAR(191) PRIMARY KEY, agent VARCHAR(191) NOT NULL, input TEXT NOT NULL, session_id VARCHAR(191), owner VARCHAR(255),
        webhook TEXT, status VARCHAR(16) NOT NULL, result TEXT, error TEXT, cancel_requested INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0, worker VARCHAR(255), run_at BIGINT NOT NULL, created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL, finished_at BIGINT)`,
      'CREATE INDEX corvid_background_runs_status ON corvid_background_runs (status, run_at)',
      `CREATE TABLE corvid_run_events (
        run_id VARCHAR(191) NOT NULL, seq INTEGER NOT NULL, type VARCHAR(64) NOT NULL, data TEXT NOT NULL, created_at BIGINT NOT NULL,
        PRIMARY KEY (run_id, seq))`,
    ],
  },
];
