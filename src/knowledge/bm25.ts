/**
 * Okapi BM25 as Lucene computes it, shared by the memory store and the SQLite store's re-ranking:
 * term-frequency saturation `k1`, length normalisation `b`, and an idf that stays positive for every
 * word, `ln(1 + (N - n + 0.5) / (n + 0.5))` (a word in most chunks weighs little, not nothing).
 */
export const BM25_K1 = 1.2;
/** BM25's length normalisation (0: none, 1: full). */
export const BM25_B = 0.75;
/**
 * How many times a word of a chunk's heading path (document title and section headings) counts
 * against a word of its text, in the term frequency and in the chunk's length (BM25F with two
 * fields, the heading a field of weight 2).
 */
export const HEADING_WEIGHT = 2;

/** A chunk's weighted length: its text's terms plus {@link HEADING_WEIGHT} times its headings'. */
export const bm25Length = (textTerms: number, headingTerms: number): number => textTerms + HEADING_WEIGHT * headingTerms;

/** The idf of a term found in `n` of `total` chunks (0 when it is in none). */
export function bm25Idf(n: number, total: number): number {
  return n <= 0 ? 0 : Math.log(1 + (total - n + 0.5) / (n + 0.5));
}

/** One term's share of a chunk's score: `tf` occurrences in a chunk of `length` terms, `avgLength` on average. */
export function bm25Term(idf: number, tf: number, length: number, avgLength: number): number {
  if (tf <= 0) return 0;
  return (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / (avgLength || 1)));
}
