import { ValidationError } from '../../errors/validation-error.js';
import type { Store, StoreOptions } from '../../types/storage/store.js';
import { applyMigrations } from '../sql/migrate.js';
import { SqlStore } from '../sql/sql-store.js';
import { PostgresBackend } from './backend.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { openPgPool } from './open-pg-pool.js';

/**
 * Opens a Postgres store on a connection pool. Migrations run in one transaction under an
 * advisory lock (so processes starting together migrate once); with `schema`, the store lives in
 * that schema (created when missing).
 */
export async function openPostgresStore(options: StoreOptions = {}): Promise<Store> {
  const url = options.url;
  if (!url) throw new ValidationError('The Postgres storage driver needs a url, e.g. postgres://user:password@localhost:5432/app');
  const { pool, client, location } = await openPgPool({
    url,
    schema: options.schema,
    max: options.poolSize ?? 10,
    connectTimeoutMs: options.connectTimeoutMs,
    applicationName: 'corvid',
  });
  try {
    const now = options.now ? options.now().getTime() : Date.now();
    const version = await client.transaction(async (tx) => {
      await tx.run('SELECT pg_advisory_xact_lock(hashtext(?))', [`corvid_schema:${options.schema ?? ''}`]);
      if (options.schema) await tx.run(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      return applyMigrations(tx, POSTGRES_MIGRATIONS, location, now);
    });
    return new SqlStore(new PostgresBackend(client, location, pool, options.poolSize ?? 10), { schemaVersion: version, now: options.now });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}

export { loadPg, type PgClient } from './driver.js';
export { openPgPool } from './open-pg-pool.js';
