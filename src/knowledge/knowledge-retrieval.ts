import { KnowledgeError } from '../errors/knowledge-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { RetrievalTimings } from '../types/events.js';
import type { KnowledgeFilter, KnowledgeIndex, ScoredChunk } from '../types/knowledge.js';
import type { Embedder } from './embedder.js';
import { parseFilter } from './metadata-filter.js';
import { maximalMarginalRelevance } from './mmr.js';
import type { QueryRewriter } from './query-rewriter.js';
import type { Reranker } from './reranker.js';
import { reciprocalRankFusion } from './rrf.js';
import { scoreFusion } from './score-fusion.js';

/** `keyword` (BM25), `vector` (cosine over embeddings) or `hybrid` (both, fused by their normalised scores: {@link scoreFusion}). */
export type SearchMode = 'keyword' | 'vector' | 'hybrid';

/** How a knowledge base searches (defaults of `createKnowledgeBase`'s `search`, some overridable per search). */
export interface RetrievalSettings {
  topK: number;
  mode: SearchMode;
  rrfK: number;
  /** Hybrid search: the keyword list's share of the fused score ({@link scoreFusion}). */
  keywordWeight: number;
  filter?: KnowledgeFilter;
  /** MMR λ (0…1); `undefined`: no diversification. */
  mmr?: number;
  rerank?: Reranker;
  /** Candidates the reranker (and MMR) look at. */
  candidates: number;
  rewrite?: QueryRewriter;
}

/** A search's results and what it took. */
export interface RetrievalOutcome {
  hits: ScoredChunk[];
  mode: SearchMode;
  /** Every query searched: the original first, then the rewrites. */
  queries: string[];
  timings: RetrievalTimings;
}

const since = (t: number): number => Math.round((performance.now() - t) * 10) / 10;

/**
 * One search: queries rewritten (optional), embedded together, each searched by `mode`, fused by
 * RRF when there are several, reranked (optional), diversified by MMR (optional), cut to `topK`.
 */
export async function runRetrieval(options: {
  indexName: string;
  index: KnowledgeIndex;
  embedder: Embedder | undefined;
  query: string;
  settings: RetrievalSettings;
  signal?: AbortSignal;
}): Promise<RetrievalOutcome> {
  const { index, embedder, query, settings, signal } = options;
  const started = performance.now();
  const { topK, mode, mmr } = settings;
  if (mmr !== undefined && !(mmr >= 0 && mmr <= 1)) throw new ValidationError(`Knowledge search: mmr must be from 0 to 1, got ${mmr}`);
  parseFilter(settings.filter); // a malformed filter fails before anything is embedded
  const timings: RetrievalTimings = { searchMs: 0, totalMs: 0 };
  const needsVectors = mode !== 'keyword' || mmr !== undefined;
  if (needsVectors && !embedder) {
    const what = mode === 'keyword' ? 'MMR (mmr)' : `${mode} search`;
    throw new KnowledgeError(
      `Knowledge base "${options.indexName}" has no embedder; ${what} needs one (use keyword search or give it an embedder)`,
      {
        kind: 'no_embedder',
        index: options.indexName,
      },
    );
  }
  let queries = [query];
  if (settings.rewrite) {
    const t = performance.now();
    const extra = await settings.rewrite.rewrite(query, { signal });
    queries = [...new Set([query, ...extra.map((q) => q.trim()).filter(Boolean)])];
    timings.rewriteMs = since(t);
  }
  const widened = settings.rerank !== undefined || mmr !== undefined || queries.length > 1;
  const k = widened ? Math.max(settings.candidates, topK) : topK;
  let vectors: Float32Array[] = [];
  // Nothing ingested yet: no hits in any mode (the index records its embedder with its first vectors).
  if (needsVectors && (await index.stats()).chunks === 0)
    return { hits: [], mode, queries, timings: { ...timings, totalMs: since(started) } };
  if (mode !== 'keyword') {
    const t = performance.now();
    vectors = await embedder!.embed(queries, { signal });
    timings.embedMs = since(t);
  }
  const t = performance.now();
  const lists = await Promise.all(
    queries.map((q, i) =>
      searchOne(index, { mode, text: q, vector: vectors[i], topK: k, filter: settings.filter, keywordWeight: settings.keywordWeight }),
    ),
  );
  let hits = lists.length === 1 ? lists[0] : reciprocalRankFusion(lists, settings.rrfK).slice(0, k);
  timings.searchMs = since(t);
  if (settings.rerank && hits.length > 0) {
    const tr = performance.now();
    hits = await settings.rerank.rerank(query, hits, { signal });
    timings.rerankMs = since(tr);
  }
  if (mmr !== undefined && hits.length > 1) {
    const tm = performance.now();
    const stored = await index.vectorsByHash([...new Set(hits.map((h) => h.chunk.hash))]);
    hits = maximalMarginalRelevance(hits, stored, { lambda: mmr, topK });
    timings.searchMs = Math.round((timings.searchMs + since(tm)) * 10) / 10;
  }
  return { hits: hits.slice(0, topK), mode, queries, timings: { ...timings, totalMs: since(started) } };
}

/** One query by one mode; hybrid fuses a wider keyword and vector pool by {@link scoreFusion}. */
async function searchOne(
  index: KnowledgeIndex,
  q: { mode: SearchMode; text: string; vector: Float32Array | undefined; topK: number; filter?: KnowledgeFilter; keywordWeight: number },
): Promise<ScoredChunk[]> {
  const { topK, filter } = q;
  switch (q.mode) {
    case 'keyword':
      return index.keywordSearch({ text: q.text, topK, filter });
    case 'vector':
      return index.vectorSearch({ vector: q.vector!, topK, filter });
    case 'hybrid': {
      const pool = Math.max(20, topK * 4);
      const [keyword, vector] = await Promise.all([
        index.keywordSearch({ text: q.text, topK: pool, filter }),
        index.vectorSearch({ vector: q.vector!, topK: pool, filter }),
      ]);
      return scoreFusion(keyword, vector, q.keywordWeight).slice(0, topK);
    }
    default: {
      const never: never = q.mode;
      throw new ValidationError(`Unknown search mode ${JSON.stringify(never)}: use keyword, vector or hybrid`);
    }
  }
}
