import { ValidationError } from '../../errors/validation-error.js';
import type { Store, StoreOptions } from '../../types/storage/store.js';
import { maskUrl } from '../shared/location.js';
import { applyMigrations } from '../sql/migrate.js';
import { SqlStore } from '../sql/sql-store.js';
import { PostgresBackend } from './backend.js';
import { loadPg, PgClient } from './driver.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Opens a Postgres store on a connection pool. Migrations run in one transaction under an
 * advisory lock (so processes starting together migrate once); with `schema`, the store lives in
 * that schema (created when missing).
 */
export async function openPostgresStore(options: StoreOptions = {}): Promise<Store> {
  const url = options.url;
  if (!url) throw new ValidationError('The Postgres storage driver needs a url, e.g. postgres://user:password@localhost:5432/app');
  if (options.schema !== undefined && !IDENTIFIER.test(options.schema)) {
    throw new ValidationError(`Postgres schema "${options.schema}" must be a plain identifier (letters, digits, _)`);
  }
  const location = maskUrl(url) + (options.schema ? ` (schema ${options.schema})` : '');
  const pg = await loadPg();
  const int8 = 20;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: 'corvid',
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: string) => (oid === int8 ? Number : pg.types.getTypeParser(oid, format as 'text'))) as never,
    },
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const client = new PgClient(pool, location, pool);
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
