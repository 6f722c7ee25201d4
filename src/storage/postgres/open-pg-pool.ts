import type { Pool } from 'pg';

import { ValidationError } from '../../errors/validation-error.js';
import { maskUrl } from '../shared/location.js';
import { loadPg, PgClient } from './driver.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const INT8_OID = 20;

/** Where and how to connect. */
export interface PgPoolOptions {
  url: string;
  /** Tables live in this schema (the `search_path`); a plain identifier. */
  schema?: string;
  /** Connections in the pool. */
  max: number;
  connectTimeoutMs?: number;
  /** Shown in `pg_stat_activity`. */
  applicationName: string;
}

/**
 * Opens a `pg` pool (loading `pg` on first use) and its `SqlClient`: bigints are read as numbers,
 * and an idle connection dropped by the server does not crash the process (the next query
 * reconnects). `location` is the masked URL (and schema) for messages.
 */
export async function openPgPool(options: PgPoolOptions): Promise<{ pool: Pool; client: PgClient; location: string }> {
  if (options.schema !== undefined && !IDENTIFIER.test(options.schema)) {
    throw new ValidationError(`Postgres schema "${options.schema}" must be a plain identifier (letters, digits, _)`);
  }
  const location = maskUrl(options.url) + (options.schema ? ` (schema ${options.schema})` : '');
  const pg = await loadPg();
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) as never,
    },
  });
  pool.on('error', () => undefined);
  return { pool, client: new PgClient(pool, location, pool), location };
}
