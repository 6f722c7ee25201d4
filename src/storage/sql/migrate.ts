import { schemaTooNew } from '../shared/errors.js';
import type { SqlClient } from './sql-client.js';

/** One schema step. Versions are 1, 2, 3…; a released migration is never edited, only followed. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** The version a database is at (0 when Corvid never wrote to it). */
export async function schemaVersion(db: SqlClient): Promise<number> {
  const rows = await db.all<{ v: number | string | null }>('SELECT MAX(version) AS v FROM corvid_schema');
  return rows[0]?.v == null ? 0 : Number(rows[0].v);
}

/**
 * Brings the schema to the latest migration, recording each in `corvid_schema`. Call it inside
 * the backend's migration lock (a transaction on SQLite and Postgres). A database at a newer
 * version than `migrations` knows is refused before anything is written.
 */
export async function applyMigrations(db: SqlClient, migrations: Migration[], location: string, now: number): Promise<number> {
  const latest = migrations[migrations.length - 1].version;
  await db.run(
    'CREATE TABLE IF NOT EXISTS corvid_schema (version INTEGER NOT NULL PRIMARY KEY, name VARCHAR(191) NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const current = await schemaVersion(db);
  if (current > latest) throw schemaTooNew(location, current, latest);
  for (const m of migrations) {
    if (m.version <= current) continue;
    for (const statement of m.statements) await db.run(statement);
    await db.run('INSERT INTO corvid_schema (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, now]);
  }
  return latest;
}
