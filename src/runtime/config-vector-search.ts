import type { CorvidConfig } from '../config/corvid-config.js';
import type { Store } from '../types/storage/store.js';
import { lazyEmbedder, openKnowledgeStore } from './config-knowledge.js';
import { storeOptionsFromConfig } from './store-options.js';

/**
 * `store` with hybrid memory and conversation search when the config's `storage.embedder` names
 * an embedder: appended messages are embedded, and both searches gain a vector side. The vectors
 * live in the knowledge tables of the same database (SQLite file, Postgres, memory), opened here
 * and closed with the store. Without `storage.embedder`, `store` itself. Loads `corvid/knowledge`
 * only when an embedder is set.
 */
export async function withConfigVectorSearch(
  store: Store,
  options: { config: CorvidConfig; cwd: string; configDir?: string },
): Promise<Store> {
  const name = options.config.storage?.embedder;
  const embedder = name === undefined ? undefined : options.config.embedders?.[name];
  if (!name || !embedder) return store;
  const k = await import('../knowledge/index.js');
  const storage = storeOptionsFromConfig(options.config.storage, options.cwd, options.configDir);
  const knowledge = await openKnowledgeStore(k, storage, storage.path ?? '');
  const lazy = lazyEmbedder(name, embedder, k, options.configDir ?? options.cwd);
  const memories = k.withVectorMemories(store, { knowledge, embedder: lazy });
  let warned = false;
  // Told once per process: the message is stored, keyword search finds it, and the next vector search embeds it.
  const onEmbedError = (error: unknown): void => {
    if (warned) return;
    warned = true;
    const why = error instanceof Error ? error.message : String(error);
    process.emitWarning(
      `Embedding conversation messages with "${name}" failed (${why}). They are stored and found by keyword search; the next vector search embeds them.`,
      { code: 'CORVID_EMBEDDING_FAILED' },
    );
  };
  return k.withVectorConversations(memories, { knowledge, embedder: lazy, closeKnowledge: true, onEmbedError });
}
