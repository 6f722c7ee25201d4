import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

import { knowledgeToolName } from '../config/check-config-references.js';
import type { CorvidConfig } from '../config/corvid-config.js';
import type { EmbedderConfig } from '../config/knowledge-schema.js';
import { ConfigError } from '../errors/config-error.js';
import type { Embedder, KnowledgeBase, KnowledgeSource } from '../knowledge/index.js';
import { maskUrl } from '../storage/shared/location.js';
import type { ContextProvider } from '../types/context-provider.js';
import type { IndexEmbedder, KnowledgeIndex, KnowledgeIndexInfo, KnowledgeStore } from '../types/knowledge.js';
import type { StoreOptions } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';
import { configKnowledgeSources } from './config-knowledge-sources.js';
import { knowledgeSearchSettings } from './knowledge-search-settings.js';
import { storeOptionsFromConfig } from './store-options.js';

/** The knowledge bases of a config, built on first use, over one store. */
export interface ConfigKnowledge {
  /** The knowledge base of `knowledge.<name>`; `undefined` when the config has none of that name. */
  get(name: string): KnowledgeBase | undefined;
  /** The sources of `knowledge.<name>` (empty for an unknown name), e.g. for their `watchPaths`. */
  sources(name: string): KnowledgeSource[];
  /** The store every base of the config uses (opened on first call). */
  store(): Promise<KnowledgeStore>;
  /**
   * Where the store is: the SQLite file, the Postgres URL (password masked), or `memory`. `exists` is
   * false while the SQLite file has not been created (reading commands then have nothing to read).
   */
  location: { path: string; exists: boolean };
  /** The search tools of an agent listing `names`: `search_knowledge` for one, `search_<name>` each for several. */
  toolsFor(names: readonly string[]): Tool[];
  /** Inject mode: a context provider per base of `names` (`kb.asContext`), with the agent's budget and top K. */
  contextFor(names: readonly string[], options?: { budgetTokens?: number; topK?: number }): ContextProvider[];
  close(): Promise<void>;
}

/** Options for `configKnowledge`. */
export interface ConfigKnowledgeOptions {
  config: CorvidConfig;
  /** Folder source paths resolve against (the config file's folder). */
  baseDir: string;
  /** Relative storage paths resolve against this (the runtime's working directory). */
  cwd: string;
  /** The environment chat models for rerank / rewrite are resolved in. Default: `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Builds the `knowledge:` section of a config: sources (see `configKnowledgeSources`), chunking,
 * `embedders:` (provider packages loaded at the first embedding), and the store: SQLite tables in
 * the storage database file (`storage:` sqlite, default `.corvid/corvid.db`), the Postgres
 * database (and schema) of `storage:`, or memory (`storage: memory`). MySQL storage is refused
 * when the store is opened.
 * Loads `corvid/knowledge`, so call it only for configs with a `knowledge:` section.
 */
export async function configKnowledge(options: ConfigKnowledgeOptions): Promise<ConfigKnowledge> {
  const k = await import('../knowledge/index.js');
  const { config } = options;
  const storage = storeOptionsFromConfig(config.storage, options.cwd, options.baseDir);
  const driver = storage.driver ?? 'sqlite';
  const path =
    driver === 'sqlite'
      ? storage.path!
      : driver === 'postgres'
        ? maskUrl(storage.url ?? '') + (storage.schema ? ` (schema ${storage.schema})` : '')
        : driver;
  let opening: Promise<KnowledgeStore> | undefined;
  const openStore = (): Promise<KnowledgeStore> => {
    if (opening) return opening;
    opening = openKnowledgeStore(k, storage, path);
    opening.catch(() => (opening = undefined)); // a failed open (server down) is retried by the next call
    return opening;
  };
  const store = lazyStore(openStore);
  const bases = new Map<string, KnowledgeBase>();
  const sourcesOf = new Map<string, KnowledgeSource[]>();
  const get = (name: string): KnowledgeBase | undefined => {
    const kb = config.knowledge?.[name];
    if (!kb) return undefined;
    let built = bases.get(name);
    if (!built) {
      const sources = configKnowledgeSources({ knowledge: k, base: name, sources: kb.sources, baseDir: options.baseDir, storage });
      sourcesOf.set(name, sources);
      const embedderConfig = kb.embedder === undefined ? undefined : config.embedders?.[kb.embedder];
      built = k.createKnowledgeBase({
        name,
        sources,
        chunking: kb.chunking,
        embedder: embedderConfig && lazyEmbedder(kb.embedder!, embedderConfig, k, options.baseDir),
        store,
        search: knowledgeSearchSettings({ k, name, kb, config, env: options.env ?? process.env }),
      });
      bases.set(name, built);
    }
    return built;
  };
  return {
    get,
    sources: (name) => (get(name) ? (sourcesOf.get(name) ?? []) : []),
    store: openStore,
    location: { path, exists: driver !== 'sqlite' || path === ':memory:' || existsSync(path) },
    toolsFor(names) {
      return names.flatMap((name) => {
        const kb = get(name);
        if (!kb) return [];
        const description = config.knowledge?.[name]?.description;
        return [
          kb.asTool({
            name: names.length > 1 ? knowledgeToolName(name) : 'search_knowledge',
            description: description
              ? `Search the "${name}" knowledge base (${description}). Returns the most relevant passages, each with a citation; cite them in your answer.`
              : undefined,
          }),
        ];
      });
    },
    contextFor(names, contextOptions = {}) {
      return names.flatMap((name) => {
        const kb = get(name);
        return kb ? [kb.asContext(contextOptions)] : [];
      });
    },
    async close() {
      const o = opening;
      opening = undefined;
      if (o) await o.then((s) => s.close()).catch(() => undefined);
    },
  };
}

/** The knowledge store of the config's storage driver (`path`: the resolved SQLite file). */
export async function openKnowledgeStore(
  k: typeof import('../knowledge/index.js'),
  storage: StoreOptions,
  path: string,
): Promise<KnowledgeStore> {
  const driver = storage.driver ?? 'sqlite';
  switch (driver) {
    case 'memory':
      return new k.MemoryKnowledgeStore();
    case 'sqlite':
      return k.openSqliteKnowledgeStore({ path, busyTimeoutMs: storage.busyTimeoutMs });
    case 'postgres':
      return k.openPostgresKnowledgeStore({ url: storage.url!, schema: storage.schema, poolSize: storage.poolSize });
    case 'mysql':
      throw new ConfigError(
        "Knowledge bases do not support MySQL storage: this config's storage is mysql. Use storage: { driver: postgres, url: ... }, sqlite or memory to use knowledge:",
      );
    default: {
      const never: never = driver;
      throw new ConfigError(`Unknown storage driver ${String(never)}`);
    }
  }
}

/** A store that opens the real one at its first use (so building agents opens no database). */
function lazyStore(open: () => Promise<KnowledgeStore>): KnowledgeStore {
  return {
    openIndex: async (name: string, o?: { embedder?: IndexEmbedder }): Promise<KnowledgeIndex> => (await open()).openIndex(name, o),
    listIndexes: async (): Promise<KnowledgeIndexInfo[]> => (await open()).listIndexes(),
    dropIndex: async (name: string): Promise<boolean> => (await open()).dropIndex(name),
    close: async () => undefined,
  };
}

/**
 * An embedder whose provider model is created at the first embedding (no API key needed before);
 * `local` is the in-process word-vector embedder (its file relative to `baseDir`).
 */
export function lazyEmbedder(
  name: string,
  config: EmbedderConfig,
  { modelEmbedder, openAiEncoding, wordVectorEmbedder }: typeof import('../knowledge/index.js'),
  baseDir = process.cwd(),
): Embedder {
  if (config.provider === 'local')
    return wordVectorEmbedder({ name: config.model, ...(config.path === undefined ? {} : { path: resolve(baseDir, config.path) }) });
  let inner: Promise<Embedder> | undefined;
  return {
    model: config.model,
    dimensions: config.dimensions,
    encoding: config.provider === 'openai' ? openAiEncoding(config.model) : undefined,
    async embed(texts, o) {
      inner ??= import('../models/create-embedding-model.js')
        .then((m) => m.createEmbeddingModel(config, `embedders.${name}`))
        .then((model) => modelEmbedder(model, { dimensions: config.dimensions, batchSize: config.batchSize, name: config.model }));
      inner.catch(() => (inner = undefined));
      return (await inner).embed(texts, o);
    },
  };
}
