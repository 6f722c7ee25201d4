import { resolve } from 'node:path';

import type { KnowledgeSourceConfig } from '../config/knowledge-schema.js';
import { ConfigError } from '../errors/config-error.js';
import type { KnowledgeSource } from '../knowledge/index.js';
import type { StoreOptions } from '../types/storage/store.js';

type KnowledgeModule = typeof import('../knowledge/index.js');

/**
 * The sources of one knowledge base of a config: folders relative to the config file, web pages,
 * and SQL queries on their own `url` or, without one, on the storage database (the SQLite file,
 * or the Postgres/MySQL URL of `storage:`).
 */
export function configKnowledgeSources(options: {
  knowledge: KnowledgeModule;
  base: string;
  sources: KnowledgeSourceConfig[];
  baseDir: string;
  storage: StoreOptions;
}): KnowledgeSource[] {
  const k = options.knowledge;
  return options.sources.map((s): KnowledgeSource => {
    switch (s.type) {
      case 'directory':
        return k.directorySource({ path: resolve(options.baseDir, s.path), include: s.include, exclude: s.exclude, maxBytes: s.maxBytes });
      case 'url':
        return k.urlSource({ ...s, name: 'url' });
      case 'sql':
        return k.sqlSource({ ...s, url: s.url ?? storageDatabase(options.storage, options.base, s.name), baseDir: options.baseDir });
      default: {
        const never: never = s;
        throw new ConfigError(`knowledge.${options.base}: unknown source ${JSON.stringify(never)}`);
      }
    }
  });
}

function storageDatabase(storage: StoreOptions, base: string, name: string): string {
  const driver = storage.driver ?? 'sqlite';
  if (driver === 'sqlite' && storage.path && storage.path !== ':memory:') return storage.path;
  if ((driver === 'postgres' || driver === 'mysql') && storage.url) return storage.url;
  throw new ConfigError(
    `knowledge.${base}: the sql source "${name}" has no url and the storage (${driver}) is not a database it can read; give the source a url (postgres://…, mysql://… or a SQLite file)`,
  );
}
