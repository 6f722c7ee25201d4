import type { StorageConfig } from '../config/corvid-config.js';
import { storeOptionsFromConfig } from './store-options.js';

/**
 * The files of a running Corvid that tools must not hand to a model: its config file and its
 * SQLite database (with the `-wal`, `-shm` and `-journal` files beside it). The shell tool hides them.
 */
export function runtimeFiles(configPath: string | undefined, storage: StorageConfig | undefined, cwd: string): string[] {
  const files = configPath !== undefined ? [configPath] : [];
  const store = storeOptionsFromConfig(storage, cwd);
  if (store.driver === 'sqlite' && store.path !== undefined && store.path !== ':memory:') {
    files.push(store.path, `${store.path}-wal`, `${store.path}-shm`, `${store.path}-journal`);
  }
  return files;
}
