import { bm25Idf, bm25Length, bm25Term, HEADING_WEIGHT } from '../../bm25.js';
import { textTerms } from '../../text-terms.js';
import { wordTerms } from './common-words.js';
import { ftsTable } from './schema.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';

/**
 * How many chunks FTS5's own `bm25()` picks for {@link rerankBm25} (or topK, when larger). The
 * re-ranking only reorders them: a chunk outside FTS5's first 50 is not found.
 */
export const RERANK_CANDIDATES = 50;

/** A candidate chunk: its row id, the heading path and text it was indexed with, and anything the caller keeps. */
export interface RerankCandidate {
  id: number;
  headings: string;
  text: string;
}

/**
 * Scores the candidates of a keyword search in index `id` with the BM25 of the memory store
 * ({@link bm25Idf}, {@link bm25Term}: Lucene's idf, which keeps a weight for words found in half
 * the chunks or more, where FTS5's `bm25()` gives them none; a heading word counts
 * {@link HEADING_WEIGHT} times, in the term frequency and the length) and returns them best first,
 * with their scores. `terms` are the query's FTS5 terms with the number of chunks holding each. The
 * candidates' words are split as {@link textTerms} does and turned into FTS5 terms by the index's
 * tokenizer ({@link wordTerms}, cached by word); chunk count and average lengths come from the FTS5
 * index's own totals, each chunk's lengths from its `_docsize` table.
 */
export function rerankBm25<C extends RerankCandidate>(
  ctx: SqliteKnowledgeContext,
  id: number,
  candidates: C[],
  terms: Map<string, number>,
): { candidate: C; score: number }[] {
  if (candidates.length === 0) return [];
  const totals = indexTotals(ctx, id);
  const avgLength = totals.rows > 0 ? bm25Length(totals.text, totals.headings) / totals.rows : 1;
  const idf = new Map([...terms].map(([t, n]) => [t, bm25Idf(n, Math.max(totals.rows, n))]));
  const counts = termCounts(ctx, candidates, idf);
  const lengths = chunkLengths(
    ctx,
    id,
    candidates.map((c) => c.id),
  );
  const scored = candidates.map((candidate, i) => {
    const length = lengths.get(candidate.id) ?? avgLength;
    let score = 0;
    for (const [t, tf] of counts[i]!) score += bm25Term(idf.get(t)!, tf, length, avgLength);
    return { candidate, score, order: i };
  });
  // Ties keep FTS5's order.
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ candidate, score }) => ({ candidate, score }));
}

/** Each candidate's weighted count of each query term (`wanted`'s keys): text words once, heading words {@link HEADING_WEIGHT} times. */
function termCounts(ctx: SqliteKnowledgeContext, candidates: RerankCandidate[], wanted: Map<string, number>): Map<string, number>[] {
  const words = candidates.map((c) => [textTerms(c.text), textTerms(c.headings)] as const);
  const distinct = new Set<string>();
  for (const [text, headings] of words) for (const w of [...text, ...headings]) distinct.add(w);
  const ftsTermsOf = wordTerms(ctx, distinct);
  return words.map(([text, headings]) => {
    const counts = new Map<string, number>();
    const add = (list: string[], weight: number) => {
      for (const w of list) for (const t of ftsTermsOf.get(w)!) if (wanted.has(t)) counts.set(t, (counts.get(t) ?? 0) + weight);
    };
    add(text, 1);
    add(headings, HEADING_WEIGHT);
    return counts;
  });
}

/**
 * The number of rows of the FTS5 index of index `id` and of tokens in each column, from its averages
 * record (row 1 of the `_data` shadow table: SQLite varints, the rows, then the tokens of `headings`
 * and of `text`).
 */
export function indexTotals(ctx: SqliteKnowledgeContext, id: number): { rows: number; headings: number; text: number } {
  const block = ctx
    .prepare(`SELECT block FROM ${ftsTable(id)}_data WHERE id = 1`)
    .pluck()
    .get() as Buffer | undefined;
  if (!block || block.length === 0) return { rows: 0, headings: 0, text: 0 };
  const [rows, next] = readVarint(block, 0);
  const [headings, last] = readVarint(block, next);
  const [text] = readVarint(block, last);
  return { rows, headings, text };
}

/** The weighted length ({@link bm25Length}) of each chunk `ids` of index `id`, from its FTS5 `_docsize` table (a varint per column). */
function chunkLengths(ctx: SqliteKnowledgeContext, id: number, ids: number[]): Map<number, number> {
  const rows = ctx
    .prepare(`SELECT id, sz FROM ${ftsTable(id)}_docsize WHERE id IN (SELECT value FROM json_each(?))`)
    .raw()
    .all(JSON.stringify(ids)) as [number, Buffer][];
  return new Map(
    rows.map(([rowid, sz]) => {
      const [headings, next] = readVarint(sz, 0);
      return [rowid, bm25Length(readVarint(sz, next)[0], headings)];
    }),
  );
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
