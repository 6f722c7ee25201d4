import type { EmbeddedChunk, KnowledgeChunk, KnowledgeIndex } from '../types/knowledge.js';
import type { Embedder } from './embedder.js';

/** Vectors known in this ingest, by chunk hash: filled from the index's cache and from new embeddings. */
export type VectorCache = Map<string, Float32Array>;

/**
 * Gives chunks their vectors: from `cache`, then from the index (`vectorsByHash`), and only the
 * texts still missing (each distinct text once) from the embedder.
 */
export async function embedChunks(options: {
  chunks: KnowledgeChunk[];
  index: KnowledgeIndex;
  embedder: Embedder;
  cache: VectorCache;
  signal?: AbortSignal;
}): Promise<{ chunks: EmbeddedChunk[]; embedded: number; cached: number }> {
  const { chunks, index, embedder, cache, signal } = options;
  const unknown = [...new Set(chunks.map((c) => c.hash).filter((h) => !cache.has(h)))];
  if (unknown.length) for (const [hash, vector] of await index.vectorsByHash(unknown)) cache.set(hash, vector);
  const missing = new Map<string, string>();
  for (const c of chunks) if (!cache.has(c.hash)) missing.set(c.hash, c.text);
  if (missing.size) {
    const vectors = await embedder.embed([...missing.values()], { signal });
    [...missing.keys()].forEach((hash, i) => cache.set(hash, vectors[i]));
  }
  return {
    chunks: chunks.map((c) => ({ ...c, vector: cache.get(c.hash) })),
    embedded: missing.size,
    cached: chunks.length - countNew(chunks, missing),
  };
}

function countNew(chunks: KnowledgeChunk[], missing: Map<string, string>): number {
  return chunks.filter((c) => missing.has(c.hash)).length;
}
