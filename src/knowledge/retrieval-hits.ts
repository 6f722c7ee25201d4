import type { RetrievalHit } from '../types/events.js';
import type { KnowledgeHit } from './knowledge-base.js';

const EXCERPT_CHARS = 200;

/** Knowledge hits as a `retrieval` event reports them: citation, location, score and a one-line excerpt. */
export function retrievalHits(hits: readonly KnowledgeHit[]): RetrievalHit[] {
  return hits.map((h) => {
    const flat = h.chunk.text.replace(/\s+/g, ' ').trim();
    return {
      citation: h.citation,
      location: h.chunk.location,
      score: Number(h.score.toFixed(4)),
      excerpt: flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat,
    };
  });
}
