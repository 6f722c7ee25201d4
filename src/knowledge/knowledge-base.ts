import { KnowledgeError } from '../errors/knowledge-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type {
  KnowledgeChunk,
  KnowledgeFilter,
  KnowledgeIndex,
  KnowledgeIndexInfo,
  KnowledgeStore,
  ScoredChunk,
} from '../types/knowledge.js';
import type { Tool } from '../types/tool.js';
import { type ChunkingOptions, chunkSizing } from './chunkers/chunk-document.js';
import { citation } from './citation.js';
import type { Embedder } from './embedder.js';
import { ingestDocuments, type IngestProgress, type IngestReport } from './ingest-documents.js';
import type { KnowledgeSource } from './knowledge-source.js';
import { knowledgeTool, type KnowledgeToolOptions } from './knowledge-tool.js';
import { MemoryKnowledgeStore } from './memory-knowledge-store.js';
import { reciprocalRankFusion } from './rrf.js';

/** `keyword` (BM25), `vector` (cosine over embeddings) or `hybrid` (both, fused by reciprocal rank). */
export type SearchMode = 'keyword' | 'vector' | 'hybrid';

/** Options for `createKnowledgeBase`. */
export interface KnowledgeBaseOptions {
  /** The index's name in the store. */
  name: string;
  sources: KnowledgeSource[];
  chunking?: ChunkingOptions;
  /** Without one, the knowledge base is keyword-only. */
  embedder?: Embedder;
  /** Default: a new `MemoryKnowledgeStore`. */
  store?: KnowledgeStore;
  /** Search defaults: `topK` 5, `mode` hybrid with an embedder (keyword without), RRF `rrfK` 60. */
  search?: { topK?: number; mode?: SearchMode; rrfK?: number };
}

/** One search result: the chunk, its score (BM25, cosine, or RRF for hybrid) and how to cite it. */
export interface KnowledgeHit {
  chunk: KnowledgeChunk;
  score: number;
  /** `path:12-30`, `URL#Heading` or `file.pdf p.3`. */
  citation: string;
}

/** Options for `KnowledgeBase.search`. */
export interface KnowledgeSearchOptions {
  topK?: number;
  mode?: SearchMode;
  filter?: KnowledgeFilter;
  signal?: AbortSignal;
}

/** Documents from sources, chunked, embedded and indexed; searched by keyword, vector or both. */
export interface KnowledgeBase {
  readonly name: string;
  /** Brings the index up to date with the sources: new and changed documents (re)indexed, removed ones deleted. */
  ingest(options?: { onProgress?: (progress: IngestProgress) => void; signal?: AbortSignal }): Promise<IngestReport>;
  search(query: string, options?: KnowledgeSearchOptions): Promise<KnowledgeHit[]>;
  /** The `search_knowledge` tool for an agent. */
  asTool(options?: KnowledgeToolOptions): Tool;
  stats(): Promise<KnowledgeIndexInfo>;
}

/**
 * A knowledge base.
 * @example
 * const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: './docs', include: ['**\/*.md'] })] });
 * await kb.ingest();
 * const hits = await kb.search('how do I rotate keys?');   // hits[0].citation → 'security.md:40-62'
 * const agent = new Agent({ name: 'helper', model, tools: [kb.asTool()] });
 */
export function createKnowledgeBase(options: KnowledgeBaseOptions): KnowledgeBase {
  if (typeof options?.name !== 'string' || !options.name) throw new ValidationError('createKnowledgeBase: "name" is required');
  if (!Array.isArray(options.sources)) throw new ValidationError(`createKnowledgeBase "${options.name}": "sources" must be an array`);
  chunkSizing(options.chunking);
  const { name, embedder } = options;
  const store = options.store ?? new MemoryKnowledgeStore();
  const defaultTopK = options.search?.topK ?? 5;
  const rrfK = options.search?.rrfK ?? 60;
  const defaultMode: SearchMode = options.search?.mode ?? (embedder ? 'hybrid' : 'keyword');

  /**
   * The index, with the embedder recorded (its dimension from the embedder, the index or a one-text
   * probe); `gainsEmbedder` when an index without embeddings gets its first embedder.
   */
  async function openIndex(signal?: AbortSignal): Promise<{ index: KnowledgeIndex; gainsEmbedder: boolean }> {
    const plain = await store.openIndex(name);
    if (!embedder) return { index: plain, gainsEmbedder: false };
    const recorded = (await plain.stats()).embedder;
    let dimensions = embedder.dimensions ?? (recorded?.model === embedder.model ? recorded.dimensions : undefined);
    dimensions ??= (await embedder.embed(['dimension probe'], { signal }))[0]?.length;
    if (!dimensions) throw new KnowledgeError(`Embedder ${embedder.model} returned an empty vector`, { kind: 'embed', index: name });
    const index = await store.openIndex(name, { embedder: { model: embedder.model, dimensions } });
    return { index, gainsEmbedder: recorded === undefined };
  }

  async function ingest(ingestOptions: { onProgress?: (p: IngestProgress) => void; signal?: AbortSignal } = {}): Promise<IngestReport> {
    const { index, gainsEmbedder } = await openIndex(ingestOptions.signal);
    return ingestDocuments({
      indexName: name,
      index,
      sources: options.sources,
      chunking: options.chunking,
      embedder,
      reindexAll: gainsEmbedder,
      signal: ingestOptions.signal,
      onProgress: ingestOptions.onProgress,
    });
  }

  async function search(query: string, searchOptions: KnowledgeSearchOptions = {}): Promise<KnowledgeHit[]> {
    if (typeof query !== 'string' || !query.trim()) throw new ValidationError('Knowledge search: the query must be a non-empty string');
    const topK = searchOptions.topK ?? defaultTopK;
    const { filter, signal } = searchOptions;
    let mode = searchOptions.mode ?? defaultMode;
    if (mode === 'hybrid' && !embedder) mode = 'keyword'; // documented: hybrid without an embedder is keyword search
    const index = await store.openIndex(name);
    const vectorHits = async (k: number): Promise<ScoredChunk[]> => {
      if (!embedder) {
        throw new KnowledgeError(`Knowledge base "${name}" has no embedder; use keyword search or give it an embedder`, {
          kind: 'no_embedder',
          index: name,
        });
      }
      // Nothing ingested yet: no hits (the index records its embedder with its first vectors).
      if ((await index.stats()).chunks === 0) return [];
      const [vector] = await embedder.embed([query], { signal });
      return index.vectorSearch({ vector, topK: k, filter });
    };
    let hits: ScoredChunk[];
    switch (mode) {
      case 'keyword':
        hits = await index.keywordSearch({ text: query, topK, filter });
        break;
      case 'vector':
        hits = await vectorHits(topK);
        break;
      case 'hybrid': {
        const pool = Math.max(20, topK * 4);
        const [keyword, vector] = await Promise.all([index.keywordSearch({ text: query, topK: pool, filter }), vectorHits(pool)]);
        hits = reciprocalRankFusion([keyword, vector], rrfK).slice(0, topK);
        break;
      }
      default: {
        const never: never = mode;
        throw new ValidationError(`Unknown search mode ${JSON.stringify(never)}: use keyword, vector or hybrid`);
      }
    }
    return hits.map((h) => ({ chunk: h.chunk, score: h.score, citation: citation(h.chunk.location) }));
  }

  const kb: KnowledgeBase = {
    name,
    ingest,
    search,
    asTool: (toolOptions) => knowledgeTool(kb, toolOptions),
    stats: async () => (await store.openIndex(name)).stats(),
  };
  return kb;
}
