import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { Store, StoreOptions } from '../../types/storage/store.js';
import { schemaTooNew } from '../shared/errors.js';
import { sqlitePath } from '../shared/location.js';
import { SCHEMA_VERSION } from '../shared/schema.js';
import { applyMigrations } from '../sql/migrate.js';
import { SqlStore } from '../sql/sql-store.js';
import { SqliteBackend } from './backend.js';
import { loadSqlite, SqliteClient, sqliteError } from './driver.js';
import { SQLITE_MIGRATIONS } from './migrations.js';

/**
 * Opens (creating when missing, with its directory) a SQLite store: WAL journal, one writer at a
 * time with a busy timeout, migrations applied in one transaction. A file that is not a SQLite
 * database, or one written by a newer schema, is refused before anything is written to it.
 */
export async function openSqliteStore(options: StoreOptions = {}): Promise<Store> {
  const path = sqlitePath(options);
  const inMemory = path === ':memory:';
  const file = inMemory ? ':memory:' : resolve(path);
  const location = inMemory ? 'sqlite::memory:' : file;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const Database = await loadSqlite();
  if (!inMemory && !existsSync(dirname(file))) {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    } catch (err) {
      throw sqliteError(Object.assign(err as Error, { code: 'SQLITE_CANTOPEN' }), location, busyTimeoutMs);
    }
  }
  let db;
  try {
    const nativeBinding = options.nativeBinding ?? (process.env.CORVID_SQLITE_BINDING || undefined);
    db = new Database(file, nativeBinding ? { timeout: busyTimeoutMs, nativeBinding } : { timeout: busyTimeoutMs });
  } catch (err) {
    throw sqliteError(err, location, busyTimeoutMs);
  }
  const client = new SqliteClient(db, location, busyTimeoutMs);
  try {
    await client.serial(() => {
      // Read-only look first: a corrupt file or a newer schema is refused before any write.
      const found = client.allSync<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'corvid_schema'",
      );
      if (found[0].n > 0) {
        const v = client.allSync<{ v: number | null }>('SELECT MAX(version) AS v FROM corvid_schema')[0].v ?? 0;
        if (v > SCHEMA_VERSION) throw schemaTooNew(location, v, SCHEMA_VERSION);
      }
      try {
        if (!inMemory) db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
      } catch (err) {
        throw sqliteError(err, location, busyTimeoutMs);
      }
    });
    const now = options.now ? options.now().getTime() : Date.now();
    const version = await client.transaction((tx) => applyMigrations(tx, SQLITE_MIGRATIONS, location, now));
    return new SqlStore(new SqliteBackend(client, location), { schemaVersion: version, now: options.now });
  } catch (err) {
    client.close();
    throw err;
  }
}

export { loadSqlite, SqliteClient, sqliteError } from './driver.js';
