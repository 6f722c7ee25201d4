import { bm25Idf, bm25Term } from '../bm25.js';
import { textTerms } from '../text-terms.js';
import { wordTerms } from './common-words.js';
import { ftsTable } from './schema.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';

/**
 * How many chunks FTS5's own `bm25()` picks for {@link rerankBm25} (or topK, when larger). The
 * re-ranking only reorders them: a chunk outside FTS5's first 50 is not found.
 */
export const RERANK_CANDIDATES = 50;

/** A candidate chunk: its row id, the text it was indexed with, and anything the caller keeps. */
export interface RerankCandidate {
  id: number;
  indexed: string;
}

/**
 * Scores the candidates of a keyword search in index `id` with the BM25 of the memory store
 * ({@link bm25Idf}, {@link bm25Term}: Lucene's idf, which keeps a weight for words found in half
 * the chunks or more, where FTS5's `bm25()` gives them none) and returns them best first, with
 * their scores. `terms` are the query's FTS5 terms with the number of chunks holding each. The
 * candidates' words are split as {@link textTerms} does and turned into FTS5 terms by the index's
 * tokenizer ({@link wordTerms}, cached by word); chunk count and average length come from the FTS5
 * index's own totals, each chunk's length from its `_docsize` table.
 */
export function rerankBm25<C extends RerankCandidate>(
  ctx: SqliteKnowledgeContext,
  id: number,
  candidates: C[],
  terms: Map<string, number>,
): { candidate: C; score: number }[] {
  if (candidates.length === 0) return [];
  const totals = indexTotals(ctx, id);
  const avgLength = totals.rows > 0 ? totals.tokens / totals.rows : 1;
  const idf = new Map([...terms].map(([t, n]) => [t, bm25Idf(n, Math.max(totals.rows, n))]));
  // The candidates' words (as keyword search splits text), each mapped to its FTS5 terms.
  const words = candidates.map((c) => textTerms(c.indexed));
  const distinct = new Set<string>();
  for (const list of words) for (const w of list) distinct.add(w);
  const stems = wordTerms(ctx, distinct);
  const lengths = chunkLengths(
    ctx,
    id,
    candidates.map((c) => c.id),
  );
  const scored = candidates.map((candidate, i) => {
    const counts = new Map<string, number>();
    for (const w of words[i]!) for (const t of stems.get(w)!) if (idf.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    const length = lengths.get(candidate.id) ?? avgLength;
    let score = 0;
    for (const [t, tf] of counts) score += bm25Term(idf.get(t)!, tf, length, avgLength);
    return { candidate, score, order: i };
  });
  // Ties keep FTS5's order.
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ candidate, score }) => ({ candidate, score }));
}

/**
 * The number of rows and of tokens in the FTS5 index of index `id`, from its averages record (row 1
 * of the `_data` shadow table: two SQLite varints, rows then tokens of the one column).
 */
export function indexTotals(ctx: SqliteKnowledgeContext, id: number): { rows: number; tokens: number } {
  const block = ctx
    .prepare(`SELECT block FROM ${ftsTable(id)}_data WHERE id = 1`)
    .pluck()
    .get() as Buffer | undefined;
  if (!block || block.length === 0) return { rows: 0, tokens: 0 };
  const [rows, next] = readVarint(block, 0);
  const [tokens] = readVarint(block, next);
  return { rows, tokens };
}

/** The number of tokens of each chunk `ids` of index `id`, from its FTS5 `_docsize` table (one varint per column). */
function chunkLengths(ctx: SqliteKnowledgeContext, id: number, ids: number[]): Map<number, number> {
  const rows = ctx
    .prepare(`SELECT id, sz FROM ${ftsTable(id)}_docsize WHERE id IN (SELECT value FROM json_each(?))`)
    .raw()
    .all(JSON.stringify(ids)) as [number, Buffer][];
  return new Map(rows.map(([rowid, sz]) => [rowid, readVarint(sz, 0)[0]]));
}

/** A SQLite varint (big-endian groups of 7 bits, a 9th byte of 8) at `offset`: its value and the next offset. */
function readVarint(buf: Buffer, offset: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9 && offset + i < buf.length; i++) {
    const byte = buf[offset + i]!;
    if (i === 8) return [value * 256 + byte, offset + 9];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  return [value, buf.length];
}
