import { KnowledgeError } from '../../errors/knowledge-error.js';
import type {
  EmbeddedChunk,
  IndexEmbedder,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeFilter,
  KnowledgeIndex,
  KnowledgeIndexInfo,
  ScoredChunk,
} from '../../types/knowledge.js';
import { filterSql, ftsQuery } from './query-sql.js';
import { bitsTable, ftsTable, vecTable } from './schema.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';
import { vecUnsupported } from './sqlite-vec-loader.js';

interface ChunkRow {
  id: number;
  document_uri: string;
  idx: number;
  text: string;
  tokens: number;
  hash: string;
  location: string;
  metadata: string;
}

const CHUNK_COLUMNS = 'c.id, c.document_uri, c.idx, c.text, c.tokens, c.hash, c.location, c.metadata';

/** The largest `k` a vec0 KNN query accepts. */
const VEC_MAX_K = 4096;

/** How vector search finds neighbours: `exact` scans every float vector; `binary` prefilters by Hamming distance. */
export type SqliteVectorSearchMode = 'exact' | 'binary';

/** Candidates per requested result that the binary prefilter passes on to exact re-scoring. */
export const BINARY_OVERSAMPLE = 10;

const toChunk = (r: ChunkRow): KnowledgeChunk => ({
  id: `${r.document_uri}#${r.idx}`,
  documentUri: r.document_uri,
  index: r.idx,
  text: r.text,
  tokens: r.tokens,
  hash: r.hash,
  location: JSON.parse(r.location) as KnowledgeChunk['location'],
  metadata: JSON.parse(r.metadata) as KnowledgeChunk['metadata'],
});

const vectorBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** A copy of a float32 blob (the driver's buffer may be reused). */
const blobVector = (b: Buffer): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * One index of a SQLite knowledge store: rows in `knowledge_documents` / `knowledge_chunks`, BM25
 * keyword search over its FTS5 table and cosine KNN over its vec0 table (sqlite-vec).
 *
 * Metadata filters are exact matches on the chunk's JSON metadata (`json_extract`, JSON type
 * included). Keyword search applies them in the same query. Vector search first asks vec0 for
 * `max(10 × topK, 200)` neighbours (at most 4096) and filters those; when fewer than `topK` pass and
 * more neighbours exist, it falls back to an exact scan of the filtered chunks, so results are exact.
 *
 * With `vectorSearch: 'binary'` (and a dimension that is a multiple of 8), an unfiltered search first
 * takes the `10 × topK` nearest chunks by Hamming distance of the sign bits (a plain table, a 32×
 * smaller scan), then scores those exactly by cosine: scores are exact, recall is approximate.
 */
export class SqliteKnowledgeIndex implements KnowledgeIndex {
  constructor(
    private readonly ctx: SqliteKnowledgeContext,
    readonly name: string,
    private readonly id: number,
    private readonly embedder: IndexEmbedder | undefined,
    private readonly options: { bits: boolean; mode: SqliteVectorSearchMode },
  ) {}

  documentHashes(): Promise<Map<string, string>> {
    return this.ctx.read(() => {
      const rows = this.ctx.prepare('SELECT uri, content_hash FROM knowledge_documents WHERE index_id = ?').all(this.id) as {
        uri: string;
        content_hash: string;
      }[];
      return new Map(rows.map((r) => [r.uri, r.content_hash]));
    });
  }

  putDocument(document: KnowledgeDocument, chunks: EmbeddedChunk[]): Promise<void> {
    return this.ctx.write(() => {
      this.removeDocument(document.uri);
      this.ctx
        .prepare('INSERT INTO knowledge_documents (index_id, uri, content_hash, metadata) VALUES (?, ?, ?, ?)')
        .run(this.id, document.uri, document.contentHash, JSON.stringify(document.metadata));
      const insertChunk = this.ctx.prepare(
        'INSERT INTO knowledge_chunks (index_id, document_uri, idx, text, tokens, hash, location, metadata, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const insertFts = this.ctx.prepare(`INSERT INTO ${ftsTable(this.id)} (rowid, text) VALUES (?, ?)`);
      for (const chunk of chunks) {
        const rowid = BigInt(
          insertChunk.run(
            this.id,
            document.uri,
            chunk.index,
            chunk.text,
            chunk.tokens,
            chunk.hash,
            JSON.stringify(chunk.location),
            JSON.stringify(chunk.metadata),
            chunk.vector && this.embedder?.dimensions === chunk.vector.length ? vectorBlob(chunk.vector) : null,
          ).lastInsertRowid,
        );
        insertFts.run(rowid, chunk.text);
        if (chunk.vector) this.insertVector(rowid, chunk, document.uri);
      }
      this.touch();
    });
  }

  /** Stores a chunk's vector; throws (rolling the document back) when it cannot. */
  private insertVector(rowid: bigint, chunk: EmbeddedChunk, uri: string): void {
    const vector = chunk.vector!;
    if (!this.embedder) {
      throw new KnowledgeError(
        `Chunk ${chunk.id} has a vector but knowledge index "${this.name}" has no embedder: open the index with one`,
        {
          kind: 'no_embedder',
          index: this.name,
          uri,
        },
      );
    }
    if (!this.ctx.vec.ok) throw vecUnsupported(this.ctx.vec, this.name, 'Storing vectors');
    if (vector.length !== this.embedder.dimensions) {
      throw new KnowledgeError(
        `Chunk ${chunk.id} has a vector of ${vector.length} dimensions; knowledge index "${this.name}" holds ${this.embedder.dimensions} (${this.embedder.model}). The document was not changed.`,
        { kind: 'dimension', index: this.name, uri },
      );
    }
    const blob = vectorBlob(vector);
    this.ctx.prepare(`INSERT INTO ${vecTable(this.id)} (rowid, embedding) VALUES (?, ?)`).run(rowid, blob);
    if (this.options.bits)
      this.ctx.prepare(`INSERT INTO ${bitsTable(this.id)} (id, bits) VALUES (?, vec_quantize_binary(?))`).run(rowid, blob);
  }

  /** Deletes a document's rows, FTS entries and vectors (inside the caller's transaction). */
  private removeDocument(uri: string): number {
    const ids = this.ctx
      .prepare('SELECT id FROM knowledge_chunks WHERE index_id = ? AND document_uri = ?')
      .pluck()
      .all(this.id, uri) as number[];
    if (ids.length > 0) {
      this.ctx
        .prepare(
          `INSERT INTO ${ftsTable(this.id)} (${ftsTable(this.id)}, rowid, text) SELECT 'delete', id, text FROM knowledge_chunks WHERE index_id = ? AND document_uri = ?`,
        )
        .run(this.id, uri);
      if (this.embedder && this.hasVecTable()) {
        if (!this.ctx.vec.ok) throw vecUnsupported(this.ctx.vec, this.name, 'Changing a document');
        const del = this.ctx.prepare(`DELETE FROM ${vecTable(this.id)} WHERE rowid = ?`);
        const delBits = this.options.bits ? this.ctx.prepare(`DELETE FROM ${bitsTable(this.id)} WHERE id = ?`) : undefined;
        for (const id of ids) {
          del.run(BigInt(id));
          delBits?.run(BigInt(id));
        }
      }
      this.ctx.prepare('DELETE FROM knowledge_chunks WHERE index_id = ? AND document_uri = ?').run(this.id, uri);
    }
    return this.ctx.prepare('DELETE FROM knowledge_documents WHERE index_id = ? AND uri = ?').run(this.id, uri).changes;
  }

  private hasVecTable(): boolean {
    return this.ctx.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(vecTable(this.id)) !== undefined;
  }

  private touch(): void {
    this.ctx.prepare('UPDATE knowledge_indexes SET updated_at = ? WHERE id = ?').run(new Date().toISOString(), this.id);
  }

  deleteDocuments(uris: string[]): Promise<void> {
    if (uris.length === 0) return Promise.resolve();
    return this.ctx.write(() => {
      let removed = 0;
      for (const uri of new Set(uris)) removed += this.removeDocument(uri);
      if (removed > 0) this.touch();
    });
  }

  vectorsByHash(hashes: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0 || !this.embedder || !this.ctx.vec.ok) return Promise.resolve(out);
    return this.ctx.read(() => {
      const stmt = this.ctx.prepare(
        `SELECT v.embedding FROM knowledge_chunks c JOIN ${vecTable(this.id)} v ON v.rowid = c.id WHERE c.index_id = ? AND c.hash = ? LIMIT 1`,
      );
      for (const hash of new Set(hashes)) {
        const row = stmt.get(this.id, hash) as { embedding: Buffer } | undefined;
        if (row) out.set(hash, blobVector(row.embedding));
      }
      return out;
    });
  }

  keywordSearch(query: { text: string; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    const match = ftsQuery(query.text);
    if (!match || query.topK <= 0) return Promise.resolve([]);
    const fts = ftsTable(this.id);
    const where = filterSql(query.filter, 'c.metadata');
    // Unfiltered, the best rowids are ranked inside FTS5 first and only those chunk rows are read;
    // filtered, the filter joins the chunk rows of every match.
    const sql =
      where.sql === ''
        ? `WITH hits AS (SELECT rowid, rank FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rank LIMIT ?) ` +
          `SELECT ${CHUNK_COLUMNS}, -hits.rank AS score FROM hits JOIN knowledge_chunks c ON c.id = hits.rowid ORDER BY hits.rank`
        : `SELECT ${CHUNK_COLUMNS}, -${fts}.rank AS score FROM ${fts} JOIN knowledge_chunks c ON c.id = ${fts}.rowid WHERE ${fts} MATCH ?${where.sql} ORDER BY ${fts}.rank LIMIT ?`;
    return this.ctx.read(() => {
      const rows = this.ctx.prepare(sql).all(match, ...where.params, Math.floor(query.topK)) as (ChunkRow & { score: number })[];
      return rows.map((r) => ({ chunk: toChunk(r), score: r.score }));
    });
  }

  async vectorSearch(query: { vector: Float32Array; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    const embedder = this.embedder;
    if (!embedder) {
      throw new KnowledgeError(
        `Knowledge index "${this.name}" has no embedder, so it has no vectors to search: open it with an embedder and re-index`,
        {
          kind: 'no_embedder',
          index: this.name,
        },
      );
    }
    if (!this.ctx.vec.ok) throw vecUnsupported(this.ctx.vec, this.name, 'Vector search');
    if (query.vector.length !== embedder.dimensions) {
      throw new KnowledgeError(
        `The query vector has ${query.vector.length} dimensions; knowledge index "${this.name}" holds ${embedder.dimensions} (${embedder.model})`,
        { kind: 'dimension', index: this.name },
      );
    }
    const topK = Math.floor(query.topK);
    if (topK <= 0) return [];
    return this.ctx.read(() => this.knn(query.vector, topK, query.filter));
  }

  /** KNN through vec0 (over-fetching when filtered), with an exact filtered scan as the fallback. */
  private knn(vector: Float32Array, topK: number, filter: KnowledgeFilter | undefined): ScoredChunk[] {
    const vec = vecTable(this.id);
    const where = filterSql(filter, 'c.metadata');
    const filtered = where.sql !== '';
    if (!filtered && this.options.bits && this.options.mode === 'binary') return this.binaryKnn(vector, topK);
    const k = Math.min(VEC_MAX_K, filtered ? Math.max(topK * 10, 200) : topK);
    const blob = vectorBlob(vector);
    const rows = this.ctx
      .prepare(
        `WITH knn AS (SELECT rowid, distance FROM ${vec} WHERE embedding MATCH ? AND k = ?) ` +
          `SELECT ${CHUNK_COLUMNS}, knn.distance AS distance FROM knn JOIN knowledge_chunks c ON c.id = knn.rowid WHERE 1 = 1${where.sql} ORDER BY knn.distance LIMIT ?`,
      )
      .all(blob, k, ...where.params, topK) as (ChunkRow & { distance: number })[];
    let result = rows;
    if (filtered && rows.length < topK && k < this.vectorCount()) {
      result = this.ctx
        .prepare(
          `SELECT ${CHUNK_COLUMNS}, vec_distance_cosine(v.embedding, ?) AS distance FROM knowledge_chunks c JOIN ${vec} v ON v.rowid = c.id ` +
            `WHERE c.index_id = ?${where.sql} ORDER BY distance LIMIT ?`,
        )
        .all(blob, this.id, ...where.params, topK) as (ChunkRow & { distance: number })[];
    }
    return result.map((r) => ({ chunk: toChunk(r), score: 1 - r.distance }));
  }

  /** Hamming-distance candidates from the bit table, re-scored exactly by cosine on the stored float vectors. */
  private binaryKnn(vector: Float32Array, topK: number): ScoredChunk[] {
    const blob = vectorBlob(vector);
    const candidates = this.ctx
      .prepare(`SELECT id FROM ${bitsTable(this.id)} ORDER BY vec_distance_hamming(vec_bit(bits), vec_quantize_binary(?)) LIMIT ?`)
      .pluck()
      .all(blob, Math.min(VEC_MAX_K, topK * BINARY_OVERSAMPLE)) as number[];
    const rows = this.ctx
      .prepare(
        `SELECT ${CHUNK_COLUMNS}, vec_distance_cosine(c.vector, ?) AS distance FROM knowledge_chunks c ` +
          'WHERE c.id IN (SELECT value FROM json_each(?)) AND c.vector IS NOT NULL ORDER BY distance LIMIT ?',
      )
      .all(blob, JSON.stringify(candidates), topK) as (ChunkRow & { distance: number })[];
    return rows.map((r) => ({ chunk: toChunk(r), score: 1 - r.distance }));
  }

  private vectorCount(): number {
    return (this.ctx.prepare(`SELECT COUNT(*) AS n FROM ${vecTable(this.id)}`).get() as { n: number }).n;
  }

  stats(): Promise<KnowledgeIndexInfo> {
    return this.ctx.read(() => indexInfo(this.ctx, this.id)!);
  }
}

interface IndexRow {
  id: number;
  name: string;
  embedder_model: string | null;
  dimensions: number | null;
  updated_at: string;
}

/** What index `id` holds; `undefined` when it does not exist. */
export function indexInfo(ctx: SqliteKnowledgeContext, id: number): KnowledgeIndexInfo | undefined {
  const row = ctx
    .prepare(
      'SELECT i.name, i.embedder_model, i.dimensions, i.updated_at, ' +
        '(SELECT COUNT(*) FROM knowledge_documents d WHERE d.index_id = i.id) AS documents, ' +
        '(SELECT COUNT(*) FROM knowledge_chunks c WHERE c.index_id = i.id) AS chunks FROM knowledge_indexes i WHERE i.id = ?',
    )
    .get(id) as (IndexRow & { documents: number; chunks: number }) | undefined;
  if (!row) return undefined;
  return {
    name: row.name,
    ...(row.embedder_model !== null && row.dimensions !== null
      ? { embedder: { model: row.embedder_model, dimensions: row.dimensions } }
      : {}),
    documents: row.documents,
    chunks: row.chunks,
    updatedAt: row.updated_at,
  };
}
