import { StorageError } from '../../errors/storage-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { Store, StoreOptions } from '../../types/storage/store.js';
import { maskUrl } from '../shared/location.js';
import { applyMigrations } from '../sql/migrate.js';
import { SqlStore } from '../sql/sql-store.js';
import { MysqlBackend } from './backend.js';
import { loadMysql, MysqlClient } from './driver.js';
import { mysqlMigrations } from './migrations.js';

/** The binary collation to use: NO PAD where the server has one (MariaDB 10.2+, MySQL 8). */
async function binaryCollation(db: MysqlClient): Promise<string> {
  const rows = await db.all<{ Collation: string }>("SHOW COLLATION WHERE Collation IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin')");
  const names = rows.map((r) => r.Collation);
  return names.includes('utf8mb4_nopad_bin')
    ? 'utf8mb4_nopad_bin'
    : names.includes('utf8mb4_0900_bin')
      ? 'utf8mb4_0900_bin'
      : 'utf8mb4_bin';
}

/**
 * Opens a MySQL / MariaDB store on a connection pool (the database in the URL must exist).
 * Migrations run under a named lock (GET_LOCK) so processes starting together migrate once.
 */
export async function openMysqlStore(options: StoreOptions = {}): Promise<Store> {
  const url = options.url;
  if (!url) throw new ValidationError('The MySQL storage driver needs a url, e.g. mysql://user:password@localhost:3306/app');
  const location = maskUrl(url);
  const mysql = await loadMysql();
  const pool = mysql.createPool({
    uri: url.replace(/^mariadb:/i, 'mysql:'),
    connectionLimit: options.poolSize ?? 10,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    bigNumberStrings: false,
  });
  // An idle connection dropped by the server must not crash the process.
  (pool as unknown as { on(event: string, fn: () => void): void }).on('error', () => undefined);
  const client = new MysqlClient(pool, location, pool);
  try {
    const now = options.now ? options.now().getTime() : Date.now();
    const { version, minTokenSize } = await client.withConnection(async (conn) => {
      const [lock] = await conn.all<{ locked: number | null }>("SELECT GET_LOCK(CONCAT('corvid_schema:', DATABASE()), 60) AS locked");
      if (Number(lock?.locked) !== 1) {
        throw new StorageError(`Another process kept the migration lock of ${location} for 60 s; try again`, { kind: 'locked', location });
      }
      try {
        const migrations = mysqlMigrations(await binaryCollation(conn));
        const v = await applyMigrations(conn, migrations, location, now);
        const size = await conn.all<{ n: number }>('SELECT @@innodb_ft_min_token_size AS n');
        return { version: v, minTokenSize: Number(size[0]?.n ?? 3) };
      } finally {
        await conn.all("SELECT RELEASE_LOCK(CONCAT('corvid_schema:', DATABASE()))").catch(() => undefined);
      }
    });
    return new SqlStore(new MysqlBackend(client, location, pool, minTokenSize, options.poolSize ?? 10), {
      schemaVersion: version,
      now: options.now,
    });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}
