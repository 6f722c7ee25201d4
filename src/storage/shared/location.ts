import { ValidationError } from '../../errors/validation-error.js';
import type { StorageDriver, StoreOptions } from '../../types/storage/store.js';

/** The URL with its password replaced by `***` (also for URLs `new URL` cannot parse). */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const k of [...u.searchParams.keys()]) if (/pass|secret|token|key/i.test(k)) u.searchParams.set(k, '***');
    return u.toString();
  } catch {
    return url.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
  }
}

/** Masks every URL-looking password inside a message (driver errors sometimes echo the URL). */
export function maskSecrets(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]*@/gi, '$1***@');
}

/** The driver `options` ask for: explicit, else from the URL scheme, else SQLite. */
export function resolveDriver(options: StoreOptions): StorageDriver {
  if (options.driver) {
    if (!['sqlite', 'postgres', 'mysql', 'memory'].includes(options.driver)) {
      throw new ValidationError(`Unknown storage driver "${String(options.driver)}": use sqlite, postgres, mysql or memory`);
    }
    return options.driver;
  }
  const url = options.url;
  if (!url) return 'sqlite';
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql';
  if (scheme === 'sqlite' || scheme === 'file') return 'sqlite';
  if (scheme === 'memory') return 'memory';
  throw new ValidationError(`Cannot tell the storage driver from the URL ${maskUrl(url)}: set driver (sqlite, postgres, mysql or memory)`);
}

/** The SQLite file `options` name: `path`, else a `sqlite:` / `file:` URL, else `./.corvid/corvid.db`. */
export function sqlitePath(options: StoreOptions): string {
  if (options.path) return options.path;
  if (options.url) {
    const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(options.url);
    if (m && m[1]) return decodeURIComponent(m[1].split('?')[0]);
    throw new ValidationError(`The SQLite driver takes a path or a sqlite:<path> URL, not ${maskUrl(options.url)}`);
  }
  return './.corvid/corvid.db';
}
