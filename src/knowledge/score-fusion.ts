import type { ScoredChunk } from '../types/knowledge.js';

/** The keyword list's share of a hybrid search's fused score (the vector list has the rest). */
export const HYBRID_KEYWORD_WEIGHT = 0.6;

/**
 * Fuses a keyword and a vector result list (each best first) by their scores: each list's scores
 * are scaled to 0…1 across that list (min-max: its last hit 0, its first 1; all 1 when they are
 * equal), and a chunk scores `keywordWeight` × its keyword share + (1 − `keywordWeight`) × its
 * vector share, 0 for a list it is not in. Unlike reciprocal rank fusion, where a list's first and
 * second hits differ by about 1/3,700 whatever their scores, a clear lead in one list stays a lead:
 * a chunk far ahead on keyword score keeps first place unless the vector list puts it far down.
 */
export function scoreFusion(keyword: ScoredChunk[], vector: ScoredChunk[], keywordWeight = HYBRID_KEYWORD_WEIGHT): ScoredChunk[] {
  const fused = new Map<string, ScoredChunk>();
  const add = (list: ScoredChunk[], weight: number): void => {
    if (list.length === 0) return;
    const scores = list.map((h) => h.score);
    const hi = Math.max(...scores);
    const lo = Math.min(...scores);
    for (const hit of list) {
      const share = hi > lo ? (hit.score - lo) / (hi - lo) : 1;
      const prior = fused.get(hit.chunk.id);
      fused.set(hit.chunk.id, { chunk: hit.chunk, score: (prior?.score ?? 0) + weight * share });
    }
  };
  add(keyword, keywordWeight);
  add(vector, 1 - keywordWeight);
  return [...fused.values()].sort((a, b) => b.score - a.score || a.chunk.id.localeCompare(b.chunk.id));
}
