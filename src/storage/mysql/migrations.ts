import type { Migration } from '../sql/migrate.js';

/**
 * MySQL / MariaDB schema (InnoDB, utf8mb4). Identifier and key columns use a binary collation
 * (`bin`: case- and, where the server has a NO PAD one, space-sensitive like the other backends);
 * the searchable text uses a case-insensitive one under a FULLTEXT index. MySQL DDL is not
 * transactional, so every statement is idempotent (IF NOT EXISTS) and a migration interrupted
 * halfway re-runs cleanly; a named lock (GET_LOCK) keeps processes from migrating at once.
 * Released migrations are never edited: add a new one (and bump SCHEMA_VERSION) instead.
 */
export function mysqlMigrations(bin: string): Migration[] {
  const table = `ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${bin}`;
  const ci = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';
  return [
    {
      version: 1,
      name: 'initial',
      statements: [
        `CREATE TABLE IF NOT EXISTS corvid_sessions (
          id VARCHAR(191) NOT NULL PRIMARY KEY, agent VARCHAR(191) NOT NULL, active_agent VARCHAR(191) NOT NULL, user_id VARCHAR(191) NULL,
          metadata LONGTEXT NOT NULL, last_seq BIGINT NOT NULL DEFAULT 0, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
          KEY corvid_sessions_created (created_at, id), KEY corvid_sessions_agent (agent, created_at, id), KEY corvid_sessions_user (user_id, created_at, id)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_entries (
          session_id VARCHAR(191) NOT NULL, seq BIGINT NOT NULL, type VARCHAR(64) NOT NULL, agent VARCHAR(191) NULL, role VARCHAR(16) NULL,
          run_id VARCHAR(191) NULL, message LONGTEXT NULL, usage_json TEXT NULL, data LONGTEXT NULL, search_text MEDIUMTEXT ${ci} NULL,
          created_at BIGINT NOT NULL, PRIMARY KEY (session_id, seq), FULLTEXT KEY corvid_entries_search (search_text)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_state (
          scope VARCHAR(16) NOT NULL, owner VARCHAR(191) NOT NULL, state_key VARCHAR(255) NOT NULL, value LONGTEXT NOT NULL,
          updated_at BIGINT NOT NULL, PRIMARY KEY (scope, owner, state_key)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_artifacts (
          session_id VARCHAR(191) NOT NULL, name VARCHAR(255) NOT NULL, version INT NOT NULL, mime_type VARCHAR(255) NOT NULL,
          size BIGINT NOT NULL, created_at BIGINT NOT NULL, content LONGBLOB NOT NULL, PRIMARY KEY (session_id, name, version)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_memories (
          id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id VARCHAR(191) NOT NULL, agent VARCHAR(191) NOT NULL, mem_key VARCHAR(255) NOT NULL,
          value LONGTEXT NOT NULL, category VARCHAR(191) NULL, tags TEXT NOT NULL, importance INT NOT NULL, search_text LONGTEXT ${ci} NOT NULL,
          created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE KEY corvid_memories_key (user_id, agent, mem_key),
          KEY corvid_memories_recent (user_id, agent, updated_at), FULLTEXT KEY corvid_memories_search (search_text)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_memory_tags (
          memory_id BIGINT NOT NULL, tag VARCHAR(100) NOT NULL, PRIMARY KEY (memory_id, tag), KEY corvid_memory_tags_tag (tag, memory_id)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_runs (
          run_id VARCHAR(191) NOT NULL PRIMARY KEY, session_id VARCHAR(191) NULL, agent VARCHAR(191) NOT NULL, status VARCHAR(16) NOT NULL,
          checkpoints INT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, expires_at BIGINT NULL,
          KEY corvid_runs_status (status, updated_at), KEY corvid_runs_session (session_id)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_checkpoints (
          run_id VARCHAR(191) NOT NULL, seq INT NOT NULL, status VARCHAR(16) NOT NULL, state LONGTEXT NOT NULL, created_at BIGINT NOT NULL,
          expires_at BIGINT NULL, PRIMARY KEY (run_id, seq), KEY corvid_checkpoints_expiry (expires_at)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_approvals (
          id VARCHAR(191) NOT NULL PRIMARY KEY, run_id VARCHAR(191) NOT NULL, session_id VARCHAR(191) NULL, tool_call_id VARCHAR(191) NOT NULL,
          tool_name VARCHAR(191) NOT NULL, args LONGTEXT NOT NULL, prompt TEXT NULL, status VARCHAR(16) NOT NULL, reason TEXT NULL,
          created_at BIGINT NOT NULL, answered_at BIGINT NULL, UNIQUE KEY corvid_approvals_call (run_id, tool_call_id),
          KEY corvid_approvals_status (status, created_at), KEY corvid_approvals_session (session_id)
        ) ${table}`,
      ],
    },
    {
      version: 2,
      name: 'counters and leases',
      statements: [
        // Totals are integers (request / token counts); expires_at is when the window ends.
        `CREATE TABLE IF NOT EXISTS corvid_counters (
          counter_key VARCHAR(255) NOT NULL PRIMARY KEY, total BIGINT NOT NULL, expires_at BIGINT NOT NULL, KEY corvid_counters_expiry (expires_at)
        ) ${table}`,
        `CREATE TABLE IF NOT EXISTS corvid_leases (
          name VARCHAR(255) NOT NULL PRIMARY KEY, holder VARCHAR(255) NOT NULL, expires_at BIGINT NOT NULL, KEY corvid_leases_expiry (expires_at)
        ) ${table}`,
      ],
    },
    backgroundRunTables(table),
  ];
}

/** Migration 3: submitted runs and their event logs. */
function backgroundRunTables(table: string): Migration {
  return {
    version: 3,
    name: 'background runs and run events',
    statements: [
      `CREATE TABLE IF NOT EXISTS corvid_background_runs (
        run_id VARCHAR(191) NOT NULL PRIMARY KEY, agent VARCHAR(191) NOT NULL, input LONGTEXT NOT NULL, session_id VARCHAR(191) NULL,
        owner VARCHAR(255) NULL, webhook TEXT NULL, status VARCHAR(16) NOT NULL, result LONGTEXT NULL, error TEXT NULL,
        cancel_requested INT NOT NULL DEFAULT 0, attempts INT NOT NULL DEFAULT 0, worker VARCHAR(255) NULL, run_at BIGINT NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, finished_at BIGINT NULL, KEY corvid_background_runs_status (status, run_at)
      ) ${table}`,
      `CREATE TABLE IF NOT EXISTS corvid_run_events (
        run_id VARCHAR(191) NOT NULL, seq INT NOT NULL, type VARCHAR(64) NOT NULL, data LONGTEXT NOT NULL, created_at BIGINT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) ${table}`,
    ],
  };
}
