import type { Store, StoreOptions } from '../types/storage/store.js';
import { resolveDriver } from './shared/location.js';

/**
 * Opens a store; the driver's code (and its database package) is loaded only now. Connects,
 * applies pending schema migrations and checks the schema version before resolving, so
 * connection, credential and schema problems surface here as a `StorageError`.
 * @example
 * await openStore();                                                  // SQLite at ./.corvid/corvid.db
 * await openStore({ driver: 'sqlite', path: '/var/lib/app/corvid.db' });
 * await openStore({ url: 'postgres://app:secret@db:5432/app' });       // needs `pg`
 * await openStore({ url: 'mysql://app:secret@db:3306/app' });          // needs `mysql2`
 * await openStore({ driver: 'memory' });
 */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  switch (resolveDriver(options)) {
    case 'memory':
      return (await import('./memory/index.js')).openMemoryStore(options);
    case 'sqlite':
      return (await import('./sqlite/index.js')).openSqliteStore(options);
    case 'postgres':
      return (await import('./postgres/index.js')).openPostgresStore(options);
    case 'mysql':
      return (await import('./mysql/index.js')).openMysqlStore(options);
  }
}
