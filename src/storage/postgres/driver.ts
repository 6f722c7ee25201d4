import type { Pool, PoolClient, QueryResult } from 'pg';

import { loadPeer } from '../../errors/load-peer.js';
import { StorageError } from '../../errors/storage-error.js';
import { maskSecrets } from '../shared/location.js';
import type { SqlClient, SqlValue } from '../sql/sql-client.js';

type PgModule = typeof import('pg');

/** Loads `pg` only when the Postgres driver is used. */
export async function loadPg(): Promise<PgModule> {
  const mod = (await loadPeer({ packages: 'pg', feature: 'The Postgres storage driver', load: () => import('pg') })) as PgModule & {
    default?: PgModule;
  };
  return mod.default ?? mod;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);

/** Turns a `pg` error into a StorageError naming the (masked) URL. */
export function pgError(err: unknown, location: string): unknown {
  if (StorageError.isInstance(err)) return err;
  const e = err as { code?: string; message?: string };
  const code = String(e?.code ?? '');
  const message = maskSecrets(e?.message ?? String(err));
  const sqlState = /^[0-9A-Z]{5}$/.test(code);
  if ((!sqlState && (UNREACHABLE.has(code) || /timeout|terminated/i.test(message))) || code === '57P03' || code === '53300') {
    return new StorageError(`Cannot reach PostgreSQL at ${location}: ${message || code}`, { kind: 'unavailable', location, cause: err });
  }
  if (code === '28P01' || code === '28000' || (!sqlState && /password|SASL/i.test(message))) {
    return new StorageError(`PostgreSQL at ${location} refused the credentials: ${message}`, { kind: 'auth_failed', location, cause: err });
  }
  if (code === '3D000') {
    return new StorageError(`PostgreSQL at ${location}: ${message} (create it first)`, { kind: 'unavailable', location, cause: err });
  }
  return new StorageError(`PostgreSQL error at ${location}: ${message}`, { kind: 'failed', location, cause: err });
}

const converted = new Map<string, string>();

/** Rewrites `?` placeholders to `$1, $2…` (cached per statement). */
export function toPg(sql: string): string {
  let out = converted.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    converted.set(sql, out);
  }
  return out;
}

const bind = (params: SqlValue[] | unknown[]): unknown[] =>
  params.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));

const RETRYABLE = new Set(['40P01', '40001']);

/** A pg pool (or one checked-out connection, inside a transaction) behind `SqlClient`. */
export class PgClient implements SqlClient {
  constructor(
    private readonly target: Pool | PoolClient,
    readonly location: string,
    private readonly pool?: Pool,
  ) {}

  async query(sql: string, params: unknown[] = [], name?: string): Promise<QueryResult> {
    try {
      return await this.target.query({ text: toPg(sql), values: bind(params), ...(name ? { name } : {}) });
    } catch (err) {
      throw pgError(err, this.location);
    }
  }

  async all<T>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async column<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    try {
      const result = await this.target.query({ text: toPg(sql), values: bind(params), rowMode: 'array' });
      return (result.rows as unknown[][]).map((r) => r[0] as T);
    } catch (err) {
      throw pgError(err, this.location);
    }
  }

  async run(sql: string, params?: SqlValue[]): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }

  async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    if (!this.pool) return fn(this);
    for (let attempt = 1; ; attempt++) {
      let conn: PoolClient;
      try {
        conn = await this.pool.connect();
      } catch (err) {
        throw pgError(err, this.location);
      }
      const tx = new PgClient(conn, this.location);
      try {
        await tx.query('BEGIN');
        const result = await fn(tx);
        await tx.query('COMMIT');
        conn.release();
        return result;
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => undefined);
        conn.release();
        const code = (err as { cause?: { code?: string } })?.cause?.code;
        if (attempt < 3 && code && RETRYABLE.has(code)) continue;
        throw err;
      }
    }
  }
}
