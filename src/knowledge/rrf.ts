import type { ScoredChunk } from '../types/knowledge.js';

/**
 * Reciprocal rank fusion: each list adds `1 / (k + rank)` (rank from 1) to a chunk's score, so a
 * chunk ranked well by both keyword and vector search comes first. `k` is 60 by default.
 */
export function reciprocalRankFusion(lists: ScoredChunk[][], k = 60): ScoredChunk[] {
  const fused = new Map<string, ScoredChunk>();
  for (const list of lists) {
    list.forEach((hit, i) => {
      const prior = fused.get(hit.chunk.id);
      fused.set(hit.chunk.id, { chunk: hit.chunk, score: (prior?.score ?? 0) + 1 / (k + i + 1) });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.chunk.id.localeCompare(b.chunk.id));
}
