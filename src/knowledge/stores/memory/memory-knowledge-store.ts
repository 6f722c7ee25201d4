import { KnowledgeError } from '../../../errors/knowledge-error.js';
import type {
  EmbeddedChunk,
  IndexEmbedder,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeFilter,
  KnowledgeIndex,
  KnowledgeIndexInfo,
  KnowledgeStore,
  ScoredChunk,
} from '../../../types/knowledge.js';
import { bm25Idf, bm25Length, bm25Term, HEADING_WEIGHT } from '../../bm25.js';
import { matchesFilter, parseFilter } from '../../metadata-filter.js';
import { headingText, textTerms } from '../../text-terms.js';

interface StoredChunk {
  chunk: KnowledgeChunk;
  vector?: Float32Array;
  /** term → its weighted count in this chunk (a heading word counts {@link HEADING_WEIGHT} times). */
  terms: Map<string, number>;
  /** The weighted length ({@link bm25Length}). */
  length: number;
}

/**
 * A knowledge store in memory: BM25 over an inverted index (words as {@link textTerms} splits them,
 * unstemmed; heading words weighted {@link HEADING_WEIGHT}), exact cosine over the vectors.
 * For tests, small corpora and single-process use; nothing survives the process.
 * @example
 * const kb = createKnowledgeBase({ name: 'docs', sources, store: new MemoryKnowledgeStore() });
 */
export class MemoryKnowledgeStore implements KnowledgeStore {
  private readonly indexes = new Map<string, MemoryKnowledgeIndex>();

  async openIndex(name: string, options: { embedder?: IndexEmbedder } = {}): Promise<KnowledgeIndex> {
    let index = this.indexes.get(name);
    if (!index) {
      index = new MemoryKnowledgeIndex(name);
      this.indexes.set(name, index);
    }
    index.useEmbedder(options.embedder);
    return index;
  }

  async listIndexes(): Promise<KnowledgeIndexInfo[]> {
    return Promise.all([...this.indexes.values()].map((i) => i.stats()));
  }

  async dropIndex(name: string): Promise<boolean> {
    return this.indexes.delete(name);
  }

  async close(): Promise<void> {
    this.indexes.clear();
  }
}

class MemoryKnowledgeIndex implements KnowledgeIndex {
  readonly name: string;
  private embedder?: IndexEmbedder;
  private readonly documents = new Map<string, { hash: string; chunkIds: string[] }>();
  private readonly chunks = new Map<string, StoredChunk>();
  /** term → ids of the chunks holding it. */
  private readonly postings = new Map<string, Set<string>>();
  private totalLength = 0;
  private updatedAt?: string;

  constructor(name: string) {
    this.name = name;
  }

  /** Records the embedder on first use; refuses another model or dimension. */
  useEmbedder(embedder: IndexEmbedder | undefined): void {
    if (!embedder) return;
    if (!this.embedder) {
      this.embedder = { model: embedder.model, dimensions: embedder.dimensions };
      return;
    }
    if (this.embedder.model !== embedder.model || this.embedder.dimensions !== embedder.dimensions) {
      throw new KnowledgeError(
        `Knowledge index "${this.name}" was built with embedder ${this.embedder.model} (${this.embedder.dimensions} dimensions), not ${embedder.model} (${embedder.dimensions}); drop and re-index it to change embedders`,
        { kind: 'embedder_mismatch', index: this.name },
      );
    }
  }

  async documentHashes(): Promise<Map<string, string>> {
    return new Map([...this.documents].map(([uri, d]) => [uri, d.hash]));
  }

  async putDocument(document: KnowledgeDocument, chunks: EmbeddedChunk[]): Promise<void> {
    for (const c of chunks) {
      if (c.vector && this.embedder && c.vector.length !== this.embedder.dimensions) {
        throw new KnowledgeError(
          `Chunk ${c.id} has a vector of ${c.vector.length} dimensions; index "${this.name}" holds ${this.embedder.dimensions}`,
          { kind: 'dimension', index: this.name, uri: document.uri },
        );
      }
    }
    this.remove(document.uri);
    for (const c of chunks) this.add(c);
    this.documents.set(document.uri, { hash: document.contentHash, chunkIds: chunks.map((c) => c.id) });
    this.touch();
  }

  async deleteDocuments(uris: string[]): Promise<void> {
    for (const uri of uris) this.remove(uri);
    this.touch();
  }

  async vectorsByHash(hashes: string[]): Promise<Map<string, Float32Array>> {
    const wanted = new Set(hashes);
    const found = new Map<string, Float32Array>();
    for (const s of this.chunks.values()) {
      if (s.vector && wanted.has(s.chunk.hash)) found.set(s.chunk.hash, s.vector);
    }
    return found;
  }

  async keywordSearch(query: { text: string; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    const filter = parseFilter(query.filter);
    const terms = [...new Set(textTerms(query.text))];
    const n = this.chunks.size;
    if (n === 0 || terms.length === 0) return [];
    const avgLength = this.totalLength / n || 1;
    const scores = new Map<string, number>();
    for (const term of terms) {
      const ids = this.postings.get(term);
      if (!ids) continue;
      const idf = bm25Idf(ids.size, n);
      for (const id of ids) {
        const s = this.chunks.get(id)!;
        const part = bm25Term(idf, s.terms.get(term)!, s.length, avgLength);
        scores.set(id, (scores.get(id) ?? 0) + part);
      }
    }
    const hits: ScoredChunk[] = [];
    for (const [id, score] of scores) {
      const s = this.chunks.get(id)!;
      if (matchesFilter(filter, s.chunk.metadata)) hits.push({ chunk: s.chunk, score });
    }
    return top(hits, query.topK);
  }

  async vectorSearch(query: { vector: Float32Array; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    if (!this.embedder) {
      throw new KnowledgeError(`Knowledge index "${this.name}" has no embeddings; vector search needs an embedder`, {
        kind: 'no_embedder',
        index: this.name,
      });
    }
    if (query.vector.length !== this.embedder.dimensions) {
      throw new KnowledgeError(
        `Query vector has ${query.vector.length} dimensions; index "${this.name}" holds ${this.embedder.dimensions} (${this.embedder.model})`,
        { kind: 'dimension', index: this.name },
      );
    }
    const filter = parseFilter(query.filter);
    const hits: ScoredChunk[] = [];
    for (const s of this.chunks.values()) {
      if (s.vector && matchesFilter(filter, s.chunk.metadata)) hits.push({ chunk: s.chunk, score: cosine(query.vector, s.vector) });
    }
    return top(hits, query.topK);
  }

  async stats(): Promise<KnowledgeIndexInfo> {
    return {
      name: this.name,
      ...(this.embedder ? { embedder: { ...this.embedder } } : {}),
      documents: this.documents.size,
      chunks: this.chunks.size,
      ...(this.updatedAt ? { updatedAt: this.updatedAt } : {}),
    };
  }

  private add(c: EmbeddedChunk): void {
    const { vector, ...chunk } = c;
    const terms = new Map<string, number>();
    const text = textTerms(chunk.text);
    const heading = textTerms(headingText(chunk));
    for (const t of text) terms.set(t, (terms.get(t) ?? 0) + 1);
    for (const t of heading) terms.set(t, (terms.get(t) ?? 0) + HEADING_WEIGHT);
    const length = bm25Length(text.length, heading.length);
    this.chunks.set(chunk.id, { chunk, vector: vector ? Float32Array.from(vector) : undefined, terms, length });
    this.totalLength += length;
    for (const t of terms.keys()) {
      let ids = this.postings.get(t);
      if (!ids) this.postings.set(t, (ids = new Set()));
      ids.add(chunk.id);
    }
  }

  private remove(uri: string): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    for (const id of doc.chunkIds) {
      const s = this.chunks.get(id);
      if (!s) continue;
      this.chunks.delete(id);
      this.totalLength -= s.length;
      for (const t of s.terms.keys()) {
        const ids = this.postings.get(t);
        ids?.delete(id);
        if (ids?.size === 0) this.postings.delete(t);
      }
    }
    this.documents.delete(uri);
  }

  private touch(): void {
    this.updatedAt = new Date().toISOString();
  }
}

function top(hits: ScoredChunk[], topK: number): ScoredChunk[] {
  return hits.sort((a, b) => b.score - a.score || a.chunk.id.localeCompare(b.chunk.id)).slice(0, Math.max(0, topK));
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
