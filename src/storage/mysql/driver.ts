import type { Pool, PoolConnection, ResultSetHeader } from 'mysql2/promise';

import { loadPeer } from '../../errors/load-peer.js';
import { StorageError } from '../../errors/storage-error.js';
import { maskSecrets } from '../shared/location.js';
import type { SqlClient, SqlValue } from '../sql/sql-client.js';

type Mysql = typeof import('mysql2/promise');

/** Loads `mysql2` only when the MySQL driver is used. */
export async function loadMysql(): Promise<Mysql> {
  const mod = (await loadPeer({
    packages: 'mysql2',
    feature: 'The MySQL/MariaDB storage driver',
    load: () => import('mysql2/promise'),
  })) as Mysql & {
    default?: Mysql;
  };
  return mod.default ?? mod;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
]);
const AUTH = new Set([
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_NOT_SUPPORTED_AUTH_MODE',
  'ER_ACCESS_DENIED_NO_PASSWORD_ERROR',
  'AUTH_SWITCH_PLUGIN_ERROR',
]);

/** Turns a mysql2 error into a StorageError naming the (masked) URL. */
export function mysqlError(err: unknown, location: string): unknown {
  if (StorageError.isInstance(err)) return err;
  const e = err as { code?: string; message?: string };
  const code = String(e?.code ?? '');
  const message = maskSecrets(e?.message || code || String(err));
  if (UNREACHABLE.has(code))
    return new StorageError(`Cannot reach MySQL at ${location}: ${message}`, { kind: 'unavailable', location, cause: err });
  if (AUTH.has(code))
    return new StorageError(`MySQL at ${location} refused the credentials: ${message}`, { kind: 'auth_failed', location, cause: err });
  if (code === 'ER_BAD_DB_ERROR')
    return new StorageError(`MySQL at ${location}: ${message} (create it first)`, { kind: 'unavailable', location, cause: err });
  return new StorageError(`MySQL error at ${location}: ${message}`, { kind: 'failed', location, cause: err });
}

const bind = (params: SqlValue[]): unknown[] =>
  params.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));

const RETRYABLE = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

/** A mysql2 pool (or one connection, inside a transaction) behind `SqlClient`. */
export class MysqlClient implements SqlClient {
  constructor(
    private readonly target: Pool | PoolConnection,
    readonly location: string,
    private readonly pool?: Pool,
  ) {}

  private async query(sql: string, params: SqlValue[] = []): Promise<unknown> {
    try {
      const [result] = await this.target.query(sql, bind(params));
      return result;
    } catch (err) {
      throw mysqlError(err, this.location);
    }
  }

  async all<T>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return (await this.query(sql, params)) as T[];
  }

  async column<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    try {
      const [rows] = await this.target.query({ sql, rowsAsArray: true }, bind(params));
      return (rows as unknown[][]).map((r) => r[0] as T);
    } catch (err) {
      throw mysqlError(err, this.location);
    }
  }

  async run(sql: string, params?: SqlValue[]): Promise<number> {
    return ((await this.query(sql, params)) as ResultSetHeader).affectedRows ?? 0;
  }

  /** Runs `fn` on one connection without a transaction (migrations: MySQL DDL commits implicitly anyway). */
  async withConnection<T>(fn: (conn: MysqlClient) => Promise<T>): Promise<T> {
    if (!this.pool) return fn(this);
    let conn: PoolConnection;
    try {
      conn = await this.pool.getConnection();
    } catch (err) {
      throw mysqlError(err, this.location);
    }
    try {
      return await fn(new MysqlClient(conn, this.location));
    } finally {
      conn.release();
    }
  }

  async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    if (!this.pool) return fn(this);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.withConnection(async (tx) => {
          await tx.query('START TRANSACTION');
          try {
            const result = await fn(tx);
            await tx.query('COMMIT');
            return result;
          } catch (err) {
            await tx.query('ROLLBACK').catch(() => undefined);
            throw err;
          }
        });
      } catch (err) {
        const code = (err as { cause?: { code?: string } })?.cause?.code;
        if (attempt < 3 && code && RETRYABLE.has(code)) continue;
        throw err;
      }
    }
  }
}
