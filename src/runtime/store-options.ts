import { isAbsolute, resolve } from 'node:path';

import type { StorageConfig } from '../config/corvid-config.js';
import type { StoreOptions } from '../types/storage/store.js';

/** The default SQLite file, relative to the runtime's working directory. */
export const DEFAULT_SQLITE_PATH = './.corvid/corvid.db';

/**
 * `openStore` options for a config's `storage:` section (absent: SQLite at
 * `./.corvid/corvid.db` in `cwd`). A relative SQLite path written in the config resolves against
 * the config file's directory (`configDir`), like every other path in it; without one, `cwd`.
 */
export function storeOptionsFromConfig(storage: StorageConfig | undefined, cwd: string, configDir?: string): StoreOptions {
  const driver = storage?.driver ?? 'sqlite';
  const options: StoreOptions = { driver };
  if (driver === 'sqlite') {
    const written = storage?.path ?? sqliteUrlPath(storage?.url);
    const path = written ?? DEFAULT_SQLITE_PATH;
    const base = written !== undefined && configDir !== undefined ? configDir : cwd;
    options.path = path === ':memory:' || isAbsolute(path) ? path : resolve(base, path);
    if (storage?.busyTimeoutMs !== undefined) options.busyTimeoutMs = storage.busyTimeoutMs;
    return options;
  }
  if (storage?.url !== undefined) options.url = storage.url;
  if (storage?.schema !== undefined) options.schema = storage.schema;
  if (storage?.poolSize !== undefined) options.poolSize = storage.poolSize;
  return options;
}

function sqliteUrlPath(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(url);
  return m && m[1] ? decodeURIComponent(m[1].split('?')[0]!) : undefined;
}
