import type { KnowledgeIndex, KnowledgeStore, ScoredChunk } from '../types/knowledge.js';
import type { Memory, MemoryScope, MemorySearchHit, MemoryStore } from '../types/storage/memories.js';
import type { Store } from '../types/storage/store.js';
import type { Embedder } from './embedder.js';
import { sha256 } from './hash.js';
import { reciprocalRankFusion } from './rrf.js';
import { wholeTextChunk } from './whole-text-chunk.js';

/** Options for {@link vectorMemories} and {@link withVectorMemories}. */
export interface VectorMemoryOptions {
  /** Where the memory vectors are kept: the knowledge store of the same database (SQLite, Postgres, memory). */
  knowledge: KnowledgeStore;
  embedder: Embedder;
  /** The knowledge index holding them. Default `_memories` (config knowledge base names start with a letter). */
  index?: string;
  /** RRF constant. Default 60. */
  rrfK?: number;
  /**
   * Vector hits less similar than this (cosine) are dropped, so an unrelated memory is not returned
   * just for being the nearest. Default 0.3; lower it for embedders whose scores run low.
   */
  minSimilarity?: number;
}

/** Memories of one scope indexed at most (the newest, by `updatedAt`). */
const MAX_INDEXED = 10_000;

const scopePrefix = (s: MemoryScope): string => `${encodeURIComponent(s.userId)}/${encodeURIComponent(s.agent)}/`;

/** The text a memory is embedded as: key, value, category and tags. */
export const memoryText = (m: Pick<Memory, 'key' | 'value' | 'category' | 'tags'>): string =>
  [`${m.key}: ${m.value}`, m.category ? `category: ${m.category}` : '', m.tags.length ? `tags: ${m.tags.join(', ')}` : '']
    .filter(Boolean)
    .join('\n');

/** Brings the scope's vectors in line with its memories; resolves with the memories by key. */
async function sync(inner: MemoryStore, embedder: Embedder, index: KnowledgeIndex, scope: MemoryScope): Promise<Map<string, Memory>> {
  const prefix = scopePrefix(scope);
  const memories = await inner.list(scope, { limit: MAX_INDEXED });
  const byKey = new Map(memories.map((m) => [m.key, m]));
  const known = new Map([...(await index.documentHashes())].filter(([uri]) => uri.startsWith(prefix)));
  const stale = memories.filter((m) => known.get(prefix + encodeURIComponent(m.key)) !== sha256(memoryText(m)));
  const gone = [...known.keys()].filter((uri) => !byKey.has(decodeURIComponent(uri.slice(prefix.length))));
  if (gone.length > 0) await index.deleteDocuments(gone);
  if (stale.length === 0) return byKey;
  const texts = stale.map(memoryText);
  const vectors = await embedder.embed(texts);
  for (const [i, m] of stale.entries()) {
    const uri = prefix + encodeURIComponent(m.key);
    const chunk = wholeTextChunk({ uri, text: texts[i]!, metadata: { scope: prefix, key: m.key }, vector: vectors[i] });
    await index.putDocument(
      { uri, source: 'memories', title: m.key, text: chunk.text, contentHash: chunk.hash, metadata: chunk.metadata },
      [chunk],
    );
  }
  return byKey;
}

/**
 * A memory store whose `search` is hybrid: the inner store's keyword search and a vector search
 * over the memories' embeddings, fused by reciprocal rank (so "what does the user drink in the
 * morning" finds `coffee: black, no sugar`). Everything else is the inner store's.
 *
 * The vectors live in a knowledge index (one document per memory, its content hash the memory's
 * text). Before a vector search the scope's index is brought up to date with the memories
 * themselves — new or changed ones embedded, deleted ones removed — so memories saved by any
 * process, tool, import or `corvid memories` are found, and an embedder failure on save loses
 * nothing. When the embedder or the vector search fails, the error propagates (no silent
 * keyword-only fallback).
 */
export function vectorMemories(inner: MemoryStore, options: VectorMemoryOptions): MemoryStore {
  const indexName = options.index ?? '_memories';
  let opening: Promise<KnowledgeIndex> | undefined;
  const openIndex = (): Promise<KnowledgeIndex> => {
    opening ??= (async () => {
      const { embedder } = options;
      const dimensions = embedder.dimensions ?? (await embedder.embed(['dimension probe']))[0]!.length;
      return options.knowledge.openIndex(indexName, { embedder: { model: embedder.model, dimensions } });
    })();
    opening.catch(() => (opening = undefined));
    return opening;
  };

  const store: MemoryStore = {
    save: (scope, input) => inner.save(scope, input),
    get: (scope, key) => inner.get(scope, key),
    list: (scope, filter) => inner.list(scope, filter),
    delete: (scope, key) => inner.delete(scope, key),
    exportJson: (scope) => inner.exportJson(scope),
    importJson: (scope, data, o) => inner.importJson(scope, data, o),
    async search(scope, query, o = {}): Promise<MemorySearchHit[]> {
      const limit = o.limit ?? 10;
      const pool = Math.max(20, limit * 4);
      const keyword = await inner.search(scope, query, { ...o, limit: Math.min(pool, 1000) });
      if (!query.trim()) return keyword.slice(0, limit);
      const index = await openIndex();
      const byKey = await sync(inner, options.embedder, index, scope);
      const [vector] = await options.embedder.embed([query]);
      const near = await index.vectorSearch({ vector: vector!, topK: pool, filter: { scope: scopePrefix(scope) } });
      const fits = (m: Memory | undefined): m is Memory =>
        m !== undefined &&
        (o.category === undefined || m.category === o.category) &&
        (o.minImportance === undefined || m.importance >= o.minImportance);
      const asChunk = (key: string): ScoredChunk['chunk'] => ({
        id: key,
        documentUri: key,
        index: 0,
        text: '',
        tokens: 0,
        hash: '',
        location: { uri: key },
        metadata: {},
      });
      const keywordList = keyword.map((h) => ({ chunk: asChunk(h.memory.key), score: h.score }));
      const minSimilarity = options.minSimilarity ?? 0.3;
      const vectorList = near
        .filter((h) => h.score >= minSimilarity)
        .map((h) => String(h.chunk.metadata.key))
        .filter((key) => fits(byKey.get(key)))
        .map((key) => ({ chunk: asChunk(key), score: 0 }));
      const memories = new Map([...byKey, ...keyword.map((h) => [h.memory.key, h.memory] as const)]);
      return reciprocalRankFusion([keywordList, vectorList], options.rrfK)
        .slice(0, limit)
        .map((h) => ({ memory: memories.get(h.chunk.id)!, score: h.score }));
    },
  };
  return store;
}

/**
 * `store` with hybrid (keyword + vector) memory search: every other part is `store`'s own. Closing
 * it closes `store`, and the knowledge store too when `closeKnowledge` is set.
 * @example
 * const store = withVectorMemories(await openStore(), { knowledge: await openSqliteKnowledgeStore({ path }), embedder });
 */
export function withVectorMemories(store: Store, options: VectorMemoryOptions & { closeKnowledge?: boolean }): Store {
  const memories = vectorMemories(store.memories, options);
  const close = async (): Promise<void> => {
    try {
      await store.close();
    } finally {
      if (options.closeKnowledge) await options.knowledge.close();
    }
  };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'memories') return memories;
      if (prop === 'close') return close;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
