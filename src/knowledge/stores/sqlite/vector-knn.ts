import type { KnowledgeFilter, ScoredChunk } from '../../../types/knowledge.js';
import { CHUNK_COLUMNS, type ChunkRow, toChunk, vectorBlob } from './chunk-row.js';
import { filterSql } from './query-sql.js';
import { vecTable } from './schema.js';
import { signBitsOf } from './sign-bits.js';
import type { SqliteIndexCache } from './sqlite-index-cache.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';

/** The largest `k` a vec0 KNN query accepts. */
const VEC_MAX_K = 4096;

/** The fewest candidates the sign-bit prefilter passes on to exact re-scoring. */
export const PREFILTER_MIN_CANDIDATES = 1000;

/** Candidates per requested result that the sign-bit prefilter passes on, above {@link PREFILTER_MIN_CANDIDATES}. */
export const PREFILTER_PER_RESULT = 20;

/** Where a KNN search looks: index `id` of a connection. */
export interface KnnTarget {
  ctx: SqliteKnowledgeContext;
  id: number;
}

/**
 * Exact KNN through the index's vec0 table (a scan of every vector). Filtered, it asks vec0 for
 * `max(10 × topK, 200)` neighbours (at most 4096) and filters those; when fewer than `topK` pass and
 * more neighbours exist, it scans the filtered chunks exactly instead, so results are always exact.
 */
export function exactKnn(target: KnnTarget, vector: Float32Array, topK: number, filter: KnowledgeFilter | undefined): ScoredChunk[] {
  const { ctx, id } = target;
  const vec = vecTable(id);
  const where = filterSql(filter, 'c.metadata');
  const filtered = where.sql !== '';
  const k = Math.min(VEC_MAX_K, filtered ? Math.max(topK * 10, 200) : topK);
  const blob = vectorBlob(vector);
  const rows = ctx
    .prepare(
      `WITH knn AS (SELECT rowid, distance FROM ${vec} WHERE embedding MATCH ? AND k = ?) ` +
        `SELECT ${CHUNK_COLUMNS}, knn.distance AS distance FROM knn JOIN knowledge_chunks c ON c.id = knn.rowid WHERE 1 = 1${where.sql} ORDER BY knn.distance LIMIT ?`,
    )
    .all(blob, k, ...where.params, topK) as (ChunkRow & { distance: number })[];
  let result = rows;
  if (filtered && rows.length < topK && k < (ctx.prepare(`SELECT COUNT(*) FROM ${vec}`).pluck().get() as number)) {
    result = ctx
      .prepare(
        `SELECT ${CHUNK_COLUMNS}, vec_distance_cosine(v.embedding, ?) AS distance FROM knowledge_chunks c JOIN ${vec} v ON v.rowid = c.id ` +
          `WHERE c.index_id = ?${where.sql} ORDER BY distance LIMIT ?`,
      )
      .all(blob, id, ...where.params, topK) as (ChunkRow & { distance: number })[];
  }
  return result.map((r) => ({ chunk: toChunk(r), score: 1 - r.distance }));
}

/**
 * Approximate KNN: the `max(1000, 20 × topK)` chunks nearest by Hamming distance of their sign bits
 * (scanned in memory, {@link SqliteIndexCache.signBits}), re-scored exactly by cosine on their
 * stored float vectors (`knowledge_chunks.vector`). Scores are exact; a true neighbour is missed
 * only when its sign bits are farther than those of all the candidates.
 */
export function prefilterKnn(target: KnnTarget & { cache: SqliteIndexCache }, vector: Float32Array, topK: number): ScoredChunk[] {
  const { ctx, cache } = target;
  const bits = cache.signBits();
  const candidates = bits.nearest(signBitsOf(vector, bits.words), Math.max(PREFILTER_MIN_CANDIDATES, PREFILTER_PER_RESULT * topK));
  // Ids and distances first: sorting whole rows (text included) costs three times as much.
  const best = ctx
    .prepare(
      'SELECT c.id, vec_distance_cosine(c.vector, ?) AS distance FROM knowledge_chunks c ' +
        'WHERE c.id IN (SELECT value FROM json_each(?)) AND c.vector IS NOT NULL ORDER BY distance LIMIT ?',
    )
    .raw()
    .all(vectorBlob(vector), JSON.stringify(candidates), topK) as [number, number][];
  const row = ctx.prepare(`SELECT ${CHUNK_COLUMNS} FROM knowledge_chunks c WHERE c.id = ?`);
  return best.map(([id, distance]) => ({ chunk: toChunk(row.get(id) as ChunkRow), score: 1 - distance }));
}
