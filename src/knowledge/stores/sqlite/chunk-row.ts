import type { KnowledgeChunk } from '../../../types/knowledge.js';

/** A row of `knowledge_chunks` as read by searches ({@link CHUNK_COLUMNS}). */
export interface ChunkRow {
  id: number;
  document_uri: string;
  idx: number;
  text: string;
  tokens: number;
  hash: string;
  location: string;
  metadata: string;
}

/** The columns of a {@link ChunkRow}, from `knowledge_chunks c`. */
export const CHUNK_COLUMNS = 'c.id, c.document_uri, c.idx, c.text, c.tokens, c.hash, c.location, c.metadata';

/** A chunk row as a {@link KnowledgeChunk}. */
export const toChunk = (r: ChunkRow): KnowledgeChunk => ({
  id: `${r.document_uri}#${r.idx}`,
  documentUri: r.document_uri,
  index: r.idx,
  text: r.text,
  tokens: r.tokens,
  hash: r.hash,
  location: JSON.parse(r.location) as KnowledgeChunk['location'],
  metadata: JSON.parse(r.metadata) as KnowledgeChunk['metadata'],
});

/** A float32 vector as a blob (no copy). */
export const vectorBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** A copy of a float32 blob (the driver's buffer may be reused). */
export const blobVector = (b: Buffer): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
