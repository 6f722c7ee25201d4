import type { ScoredChunk } from '../types/knowledge.js';
import { cosine } from './stores/memory/memory-knowledge-store.js';

/**
 * Maximal marginal relevance: picks `topK` of the ranked `hits` one at a time, each the one with
 * the best `λ · relevance − (1 − λ) · (highest cosine similarity to a passage already picked)`, so
 * near-duplicate passages give way to ones that add something. Relevance is the hit's score scaled
 * to 0…1 over the list (so it works for BM25, cosine, RRF and reranker scores alike). `λ = 1` keeps
 * the ranking; `0.5` balances relevance and diversity. Hits without a vector in `vectors` (by
 * chunk hash) count as unlike every other. Scores returned are the hits' own.
 */
export function maximalMarginalRelevance(
  hits: ScoredChunk[],
  vectors: ReadonlyMap<string, Float32Array>,
  options: { lambda: number; topK: number },
): ScoredChunk[] {
  const { lambda, topK } = options;
  if (hits.length <= 1 || lambda >= 1) return hits.slice(0, topK);
  let max = -Infinity;
  let min = Infinity;
  for (const h of hits) {
    max = Math.max(max, h.score);
    min = Math.min(min, h.score);
  }
  const range = max - min || 1;
  const left = hits.map((hit) => ({ hit, relevance: (hit.score - min) / range, vector: vectors.get(hit.chunk.hash), nearest: -1 }));
  const picked: ScoredChunk[] = [];
  while (picked.length < topK && left.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    left.forEach((c, i) => {
      const value = lambda * c.relevance - (1 - lambda) * Math.max(0, c.nearest);
      if (value > bestValue) ((best = i), (bestValue = value));
    });
    const [chosen] = left.splice(best, 1);
    picked.push(chosen.hit);
    if (!chosen.vector) continue;
    for (const c of left) if (c.vector) c.nearest = Math.max(c.nearest, cosine(c.vector, chosen.vector));
  }
  return picked;
}
