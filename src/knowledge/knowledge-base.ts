import { KnowledgeError } from '../errors/knowledge-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ContextProvider } from '../types/context-provider.js';
import type { RetrievalTimings } from '../types/events.js';
import type { KnowledgeChunk, KnowledgeFilter, KnowledgeIndex, KnowledgeIndexInfo, KnowledgeStore } from '../types/knowledge.js';
import type { Tool } from '../types/tool.js';
import { type ChunkingOptions, chunkSizing } from './chunkers/chunk-document.js';
import { citation } from './citation.js';
import type { Embedder } from './embedder.js';
import { ingestDocuments, type IngestProgress, type IngestReport } from './ingest-documents.js';
import { knowledgeContext, type KnowledgeContextOptions } from './knowledge-context.js';
import { runRetrieval, type SearchMode } from './knowledge-retrieval.js';
import type { KnowledgeSource } from './knowledge-source.js';
import { knowledgeTool, type KnowledgeToolOptions } from './knowledge-tool.js';
import type { QueryRewriter } from './query-rewriter.js';
import type { Reranker } from './reranker.js';
import { HYBRID_KEYWORD_WEIGHT } from './score-fusion.js';
import { MemoryKnowledgeStore } from './stores/memory/memory-knowledge-store.js';
import { tiktokenCounter } from './tiktoken-counter.js';

export type { SearchMode } from './knowledge-retrieval.js';

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
  /** How searches run: defaults `topK` 5, `mode` hybrid with an embedder (keyword without), `keywordWeight` 0.6, RRF `rrfK` 60. */
  search?: {
    topK?: number;
    mode?: SearchMode;
    /**
     * Hybrid search: the keyword list's share (0…1) of the fused score, the vector list's being the
     * rest; each list's scores are scaled to 0…1 first (`scoreFusion`). Default 0.6.
     */
    keywordWeight?: number;
    /** The constant of the reciprocal rank fusion of a query's rewrites (`1 / (rrfK + rank)`). Default 60. */
    rrfK?: number;
    /**
     * Diversify results by maximal marginal relevance with this λ (0…1): 1 keeps the ranking, 0.5
     * balances relevance against similarity to passages already picked. Needs an embedder. Default: off.
     */
    mmr?: number;
    /** Reorders the top `candidates` (`llmReranker`, `modelReranker` over an AI SDK reranking model). Default: none. */
    rerank?: Reranker;
    /** Candidates searched per query when reranking, rewriting or diversifying. Default 20. */
    candidates?: number;
    /** Searches rewrites of the query too (`multiQueryRewriter`, `hydeRewriter`), fused by RRF. Default: none. */
    rewrite?: QueryRewriter;
  };
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
  /** MMR λ for this search; `null` turns the knowledge base's MMR off. */
  mmr?: number | null;
  signal?: AbortSignal;
}

/** A search with what it took: the `retrieve` answer, and what `retrieval` events report. */
export interface KnowledgeRetrieval {
  /** The knowledge base's name. */
  knowledge: string;
  query: string;
  /** The mode used (`hybrid` without an embedder is `keyword`). */
  mode: SearchMode;
  /** Every query searched: the original, then its rewrites. */
  queries: string[];
  hits: KnowledgeHit[];
  timings: RetrievalTimings;
}

/** Documents from sources, chunked, embedded and indexed; searched by keyword, vector or both. */
export interface KnowledgeBase {
  readonly name: string;
  /** Brings the index up to date with the sources: new and changed documents (re)indexed, removed ones deleted. */
  ingest(options?: { onProgress?: (progress: IngestProgress) => void; signal?: AbortSignal }): Promise<IngestReport>;
  search(query: string, options?: KnowledgeSearchOptions): Promise<KnowledgeHit[]>;
  /** Like `search`, with the mode used, the queries searched and the time taken by each part. */
  retrieve(query: string, options?: KnowledgeSearchOptions): Promise<KnowledgeRetrieval>;
  /** Passages for the instructions of each turn of an agent (inject mode): `new Agent({ contextProviders: [kb.asContext()] })`. */
  asContext(options?: KnowledgeContextOptions): ContextProvider;
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
 * // or put the best passages into the instructions of every turn:
 * const agent = new Agent({ name: 'helper', model, contextProviders: [kb.asContext({ budgetTokens: 1500 })] });
 */
export function createKnowledgeBase(options: KnowledgeBaseOptions): KnowledgeBase {
  if (typeof options?.name !== 'string' || !options.name) throw new ValidationError('createKnowledgeBase: "name" is required');
  if (!Array.isArray(options.sources)) throw new ValidationError(`createKnowledgeBase "${options.name}": "sources" must be an array`);
  chunkSizing(options.chunking);
  const { name, embedder } = options;
  const store = options.store ?? new MemoryKnowledgeStore();
  const defaultTopK = options.search?.topK ?? 5;
  const rrfK = options.search?.rrfK ?? 60;
  const keywordWeight = options.search?.keywordWeight ?? HYBRID_KEYWORD_WEIGHT;
  if (!(keywordWeight >= 0 && keywordWeight <= 1))
    throw new ValidationError(`createKnowledgeBase "${options.name}": search.keywordWeight must be from 0 to 1, got ${keywordWeight}`);
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
      chunking: await withTokenizer(options.chunking, embedder),
      embedder,
      reindexAll: gainsEmbedder,
      signal: ingestOptions.signal,
      onProgress: ingestOptions.onProgress,
    });
  }

  async function retrieve(query: string, searchOptions: KnowledgeSearchOptions = {}): Promise<KnowledgeRetrieval> {
    if (typeof query !== 'string' || !query.trim()) throw new ValidationError('Knowledge search: the query must be a non-empty string');
    let mode = searchOptions.mode ?? defaultMode;
    if (mode === 'hybrid' && !embedder) mode = 'keyword'; // documented: hybrid without an embedder is keyword search
    const outcome = await runRetrieval({
      indexName: name,
      index: await store.openIndex(name),
      embedder,
      query,
      signal: searchOptions.signal,
      settings: {
        topK: searchOptions.topK ?? defaultTopK,
        mode,
        rrfK,
        keywordWeight,
        filter: searchOptions.filter,
        mmr: searchOptions.mmr === null ? undefined : (searchOptions.mmr ?? options.search?.mmr),
        rerank: options.search?.rerank,
        candidates: options.search?.candidates ?? 20,
        rewrite: options.search?.rewrite,
      },
    });
    return {
      ...outcome,
      knowledge: name,
      query,
      hits: outcome.hits.map((h) => ({ chunk: h.chunk, score: h.score, citation: citation(h.chunk.location) })),
    };
  }

  const kb: KnowledgeBase = {
    name,
    ingest,
    retrieve,
    search: async (query, searchOptions) => (await retrieve(query, searchOptions)).hits,
    asTool: (toolOptions) => knowledgeTool(kb, toolOptions),
    asContext: (contextOptions) => knowledgeContext(kb, contextOptions),
    stats: async () => (await store.openIndex(name)).stats(),
  };
  return kb;
}

/** Chunking options counting tokens with the embedder's tokenizer (`js-tiktoken`) when it has one and none was given. */
async function withTokenizer(chunking: ChunkingOptions | undefined, embedder: Embedder | undefined): Promise<ChunkingOptions | undefined> {
  if (chunking?.tokenCounter || !embedder?.encoding) return chunking;
  const tokenCounter = await tiktokenCounter(embedder.encoding);
  return tokenCounter ? { ...chunking, tokenCounter } : chunking;
}
