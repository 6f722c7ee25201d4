import { KnowledgeError } from '../errors/knowledge-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { Tool } from '../types/tool.js';
import type { KnowledgeChunk, KnowledgeFilter, KnowledgeIndex, KnowledgeIndexInfo, KnowledgeStore, ScoredChunk } from '../types/knowledge.js';
import { chunkDocument, chunkSizing, type ChunkingOptions } from './chunkers/chunk-document.js';
import { citation } from './citation.js';
import { embedChunks, type VectorCache } from './embed-chunks.js';
import type { Embedder } from './embedder.js';
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

/** What happened to one document during an ingest. */
export type IngestStatus = 'added' | 'updated' | 'unchanged' | 'deleted' | 'failed';

/** Progress of an ingest, once per document. */
export interface IngestProgress {
  uri: string;
  status: IngestStatus;
  /** Documents handled so far. */
  done: number;
  error?: KnowledgeError;
}

/** What an ingest did. */
export interface IngestReport {
  added: string[];
  updated: string[];
  deleted: string[];
  unchanged: number;
  /** Documents that could not be loaded (their previously indexed version, if any, stays). */
  failed: KnowledgeError[];
  /** Chunks written. */
  chunks: number;
  /** Chunk texts sent to the embedder; the others came from the cache. */
  embedded: number;
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

  /** The index, with the embedder recorded (its dimension found from the index or a one-text probe). */
  async function openIndex(signal?: AbortSignal): Promise<KnowledgeIndex> {
    if (!embedder) return store.openIndex(name);
    const recorded = (await (await store.openIndex(name)).stats()).embedder;
    let dimensions = embedder.dimensions ?? (recorded?.model === embedder.model ? recorded.dimensions : undefined);
    dimensions ??= (await embedder.embed(['dimension probe'], { signal }))[0]?.length;
    if (!dimensions) throw new KnowledgeError(`Embedder ${embedder.model} returned an empty vector`, { kind: 'embed', index: name });
    return store.openIndex(name, { embedder: { model: embedder.model, dimensions } });
  }

  async function ingest(ingestOptions: { onProgress?: (p: IngestProgress) => void; signal?: AbortSignal } = {}): Promise<IngestReport> {
    const { signal, onProgress } = ingestOptions;
    const index = await openIndex(signal);
    const known = await index.documentHashes();
    const report: IngestReport = { added: [], updated: [], deleted: [], unchanged: 0, failed: [], chunks: 0, embedded: 0 };
    const seen = new Set<string>();
    const cache: VectorCache = new Map();
    let done = 0;
    const progress = (uri: string, status: IngestStatus, error?: KnowledgeError): void => onProgress?.({ uri, status, done: ++done, ...(error ? { error } : {}) });
    const fail = (error: KnowledgeError): void => {
      report.failed.push(error);
      if (error.uri) seen.add(error.uri); // keep what was indexed before
      progress(error.uri ?? '', 'failed', error);
    };
    for (const source of options.sources) {
      for await (const document of source.list({ signal, report: fail })) {
        signal?.throwIfAborted();
        if (seen.has(document.uri)) {
          fail(new KnowledgeError(`Two documents have the URI ${document.uri} (the second from source "${source.name}"); give sources distinct folders or names`, { kind: 'load', index: name, uri: document.uri }));
          continue;
        }
        seen.add(document.uri);
        const previous = known.get(document.uri);
        if (previous === document.contentHash) {
          report.unchanged++;
          progress(document.uri, 'unchanged');
          continue;
        }
        const chunks = chunkDocument(document, options.chunking);
        const embedded = embedder ? await embedChunks({ chunks, index, embedder, cache, signal }) : { chunks, embedded: 0 };
        await index.putDocument(document, embedded.chunks);
        report.chunks += chunks.length;
        report.embedded += embedded.embedded;
        const status = previous === undefined ? 'added' : 'updated';
        report[status].push(document.uri);
        progress(document.uri, status);
      }
    }
    const gone = [...known.keys()].filter((uri) => !seen.has(uri));
    if (gone.length) await index.deleteDocuments(gone);
    for (const uri of gone) {
      report.deleted.push(uri);
      progress(uri, 'deleted');
    }
    return report;
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
        throw new KnowledgeError(`Knowledge base "${name}" has no embedder; use keyword search or give it an embedder`, { kind: 'no_embedder', index: name });
      }
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
