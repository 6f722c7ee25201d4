import { KnowledgeError } from '../errors/knowledge-error.js';
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeIndex } from '../types/knowledge.js';
import { chunkDocument, type ChunkingOptions } from './chunkers/chunk-document.js';
import { embedChunks, type VectorCache } from './embed-chunks.js';
import type { Embedder } from './embedder.js';
import type { KnowledgeSource } from './knowledge-source.js';

/** What happened to one document during an ingest. */
export type IngestStatus = 'added' | 'updated' | 'unchanged' | 'deleted' | 'failed';

/** Progress of an ingest, once per document; the counts are totals so far. */
export interface IngestProgress {
  uri: string;
  status: IngestStatus;
  /** Documents handled so far. */
  done: number;
  /** Documents the sources list, when every source can count them (see `KnowledgeSource.count`). */
  total?: number;
  /** Chunks written so far. */
  chunks: number;
  /** Chunk texts embedded so far (the others came from the cache). */
  embedded: number;
  /** Tokens of the chunks written so far. */
  tokens: number;
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

/** Chunks gathered from several documents before they are embedded together (fewer, fuller requests); without an embedder each document is written at once. */
const EMBED_BATCH_CHUNKS = 256;

interface Pending {
  document: KnowledgeDocument;
  chunks: KnowledgeChunk[];
  status: 'added' | 'updated';
}

/**
 * Brings `index` up to date with `sources`: unchanged documents (same content hash) skipped,
 * new and changed ones chunked, embedded (across documents, in batches) and replaced whole,
 * documents no longer listed deleted. `reindexAll` re-writes every document (an index gaining embeddings).
 */
export async function ingestDocuments(options: {
  indexName: string;
  index: KnowledgeIndex;
  sources: KnowledgeSource[];
  chunking?: ChunkingOptions;
  embedder?: Embedder;
  reindexAll?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}): Promise<IngestReport> {
  const { index, embedder, signal, onProgress } = options;
  const known = await index.documentHashes();
  const report: IngestReport = { added: [], updated: [], deleted: [], unchanged: 0, failed: [], chunks: 0, embedded: 0 };
  const seen = new Set<string>();
  const cache: VectorCache = new Map();
  let pending: Pending[] = [];
  let pendingChunks = 0;
  let done = 0;
  let tokens = 0;
  const total = onProgress ? await countDocuments(options.sources, signal) : undefined;
  const counts = (): Omit<IngestProgress, 'uri' | 'status'> => ({
    done: ++done,
    total,
    chunks: report.chunks,
    embedded: report.embedded,
    tokens,
  });
  const progress = (uri: string, status: IngestStatus, error?: KnowledgeError): void =>
    onProgress?.({ uri, status, ...counts(), ...(error ? { error } : {}) });
  const fail = (error: KnowledgeError): void => {
    report.failed.push(error);
    if (error.uri) seen.add(error.uri); // keep what was indexed before
    progress(error.uri ?? '', 'failed', error);
  };
  const flush = async (): Promise<void> => {
    const batch = pending;
    pending = [];
    pendingChunks = 0;
    const all = batch.flatMap((p) => p.chunks);
    const vectors = embedder && all.length ? await embedChunks({ chunks: all, index, embedder, cache, signal }) : undefined;
    report.embedded += vectors?.embedded ?? 0;
    for (const p of batch) {
      signal?.throwIfAborted();
      await index.putDocument(p.document, vectors ? p.chunks.map((c) => ({ ...c, vector: cache.get(c.hash) })) : p.chunks);
      report.chunks += p.chunks.length;
      for (const c of p.chunks) tokens += c.tokens;
      report[p.status].push(p.document.uri);
      progress(p.document.uri, p.status);
    }
  };
  for (const source of options.sources) {
    for await (const document of source.list({ signal, report: fail })) {
      signal?.throwIfAborted();
      if (seen.has(document.uri)) {
        fail(duplicate(options.indexName, document.uri, source.name));
        continue;
      }
      seen.add(document.uri);
      const previous = known.get(document.uri);
      if (previous === document.contentHash && !options.reindexAll) {
        report.unchanged++;
        progress(document.uri, 'unchanged');
        continue;
      }
      const chunks = chunkDocument(document, options.chunking);
      pending.push({ document, chunks, status: previous === undefined ? 'added' : 'updated' });
      pendingChunks += chunks.length;
      if (!embedder || pendingChunks >= EMBED_BATCH_CHUNKS) await flush();
    }
  }
  await flush();
  const gone = [...known.keys()].filter((uri) => !seen.has(uri));
  if (gone.length) await index.deleteDocuments(gone);
  for (const uri of gone) {
    report.deleted.push(uri);
    progress(uri, 'deleted');
  }
  return report;
}

/** How many documents the sources list, when each can say; `undefined` otherwise. */
async function countDocuments(sources: KnowledgeSource[], signal: AbortSignal | undefined): Promise<number | undefined> {
  let total = 0;
  for (const source of sources) {
    if (!source.count) return undefined;
    const n = await source.count({ signal }).catch(() => undefined);
    if (n === undefined) return undefined;
    total += n;
  }
  return total;
}

function duplicate(index: string, uri: string, source: string): KnowledgeError {
  return new KnowledgeError(
    `Two documents have the URI ${uri} (the second from source "${source}"); give sources distinct folders or names`,
    {
      kind: 'load',
      index,
      uri,
    },
  );
}
