import { KnowledgeError } from '../../../errors/knowledge-error.js';
import type {
  ChunkLocation,
  EmbeddedChunk,
  IndexEmbedder,
  KnowledgeDocument,
  KnowledgeFilter,
  KnowledgeIndex,
  KnowledgeIndexInfo,
  ScoredChunk,
} from '../../../types/knowledge.js';
import { headingText } from '../../text-terms.js';
import { RERANK_CANDIDATES, rerankBm25 } from './bm25-rerank.js';
import { blobVector, CHUNK_COLUMNS, type ChunkRow, toChunk, vectorBlob } from './chunk-row.js';
import { keywordMatch } from './common-words.js';
import { filterSql } from './query-sql.js';
import { bitsTable, deleteFtsRows, ftsTable, insertFtsSql, vecTable } from './schema.js';
import { indexCache, type SqliteIndexCache } from './sqlite-index-cache.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';
import { vecUnsupported } from './sqlite-vec-loader.js';
import { exactKnn, prefilterKnn } from './vector-knn.js';

/**
 * How vector search finds neighbours: `exact` compares the query with every vector; `binary` takes
 * candidates by the Hamming distance of sign bits and re-scores them exactly; `auto` is `exact` below
 * a number of vectors and `binary` from there.
 */
export type SqliteVectorSearchMode = 'auto' | 'exact' | 'binary';

/** How an index searches (set by the store's options). */
export interface SqliteSearchOptions {
  /** Whether the index has a sign-bit table (the prefilter needs one). */
  bits: boolean;
  mode: SqliteVectorSearchMode;
  /** With `auto`, the number of vectors from which the prefilter is used. */
  prefilterFrom: number;
  /** Keyword search leaves out words found in more than this share of the chunks (see {@link keywordMatch}). */
  commonWordShare: number;
}

/**
 * One index of a SQLite knowledge store: rows in `knowledge_documents` / `knowledge_chunks`, BM25
 * keyword search over its FTS5 table and cosine KNN over its vec0 table (sqlite-vec).
 *
 * Metadata filters ({@link filterSql}) are conditions on the chunk's JSON metadata (`json_type`,
 * `json_extract`). Keyword search applies them in the same query; it leaves out the query's very common
 * words when it has rarer ones ({@link keywordMatch}). Filtered vector searches are exact
 * ({@link exactKnn}). Unfiltered ones are exact too with `vectorSearch: 'exact'`, and below
 * `prefilterFrom` vectors with `auto`; otherwise (and with a sign-bit table, which needs a dimension
 * that is a multiple of 8) they go through the sign-bit prefilter ({@link prefilterKnn}): exact
 * scores, approximate recall.
 */
export class SqliteKnowledgeIndex implements KnowledgeIndex {
  private readonly cache: SqliteIndexCache;

  constructor(
    private readonly ctx: SqliteKnowledgeContext,
    readonly name: string,
    private readonly id: number,
    private readonly embedder: IndexEmbedder | undefined,
    private readonly options: SqliteSearchOptions,
  ) {
    this.cache = indexCache(ctx, id, embedder?.dimensions);
  }

  /** A write transaction that keeps this connection's cache of the index in step (reset when it fails). */
  private write(fn: () => void): Promise<void> {
    return this.ctx.write(() => {
      try {
        this.cache.refresh();
        fn();
      } catch (err) {
        this.cache.reset();
        throw err;
      }
    });
  }

  /** A read that first brings the cache up to date with other connections' writes. */
  private read<T>(fn: () => T): Promise<T> {
    return this.ctx.read(() => {
      this.cache.refresh();
      return fn();
    });
  }

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
    return this.write(() => {
      this.removeDocument(document.uri);
      this.ctx
        .prepare('INSERT INTO knowledge_documents (index_id, uri, content_hash, metadata) VALUES (?, ?, ?, ?)')
        .run(this.id, document.uri, document.contentHash, JSON.stringify(document.metadata));
      const insertChunk = this.ctx.prepare(
        'INSERT INTO knowledge_chunks (index_id, document_uri, idx, text, tokens, hash, location, metadata, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const insertFts = this.ctx.prepare(insertFtsSql(this.id));
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
        insertFts.run(rowid, headingText(chunk), chunk.text);
        if (chunk.vector) this.insertVector(rowid, chunk, document.uri);
        this.cache.added(Number(rowid), chunk.vector && this.options.bits ? chunk.vector : undefined);
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
      deleteFtsRows(this.ctx.db, this.id, 'AND document_uri = ?', [uri]);
      if (this.embedder && this.hasVecTable()) {
        if (!this.ctx.vec.ok) throw vecUnsupported(this.ctx.vec, this.name, 'Changing a document');
        const del = this.ctx.prepare(`DELETE FROM ${vecTable(this.id)} WHERE rowid = ?`);
        const delBits = this.options.bits ? this.ctx.prepare(`DELETE FROM ${bitsTable(this.id)} WHERE id = ?`) : undefined;
        for (const id of ids) {
          del.run(BigInt(id));
          delBits?.run(BigInt(id));
        }
      }
      for (const id of ids) this.cache.removed(id);
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
    return this.write(() => {
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

  async keywordSearch(query: { text: string; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    const where = filterSql(query.filter, 'c.metadata');
    const topK = Math.floor(query.topK);
    if (topK <= 0 || !/[\p{L}\p{N}_]/u.test(query.text)) return [];
    const fts = ftsTable(this.id);
    const candidates = Math.max(topK, RERANK_CANDIDATES);
    // FTS5's bm25() picks the candidates, re-ranked by rerankBm25. Unfiltered, the best rowids are
    // ranked inside FTS5 first and only those chunk rows are read; filtered, the filter joins the
    // chunk rows of every match.
    const sql =
      where.sql === ''
        ? `WITH hits AS (SELECT rowid, rank FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rank LIMIT ?) ` +
          `SELECT ${CHUNK_COLUMNS} FROM hits JOIN knowledge_chunks c ON c.id = hits.rowid ORDER BY hits.rank`
        : `SELECT ${CHUNK_COLUMNS} FROM ${fts} JOIN knowledge_chunks c ON c.id = ${fts}.rowid WHERE ${fts} MATCH ?${where.sql} ORDER BY ${fts}.rank LIMIT ?`;
    return this.read(() => {
      const plan = keywordMatch(this.ctx, this.cache, this.id, query.text, this.options.commonWordShare);
      if (!plan) return [];
      const run = (match: string) => this.ctx.prepare(sql).all(match, ...where.params, candidates) as ChunkRow[];
      let rows = run(plan.match);
      if (plan.all !== undefined && rows.length < topK) rows = run(plan.all);
      const ranked = rerankBm25(
        this.ctx,
        this.id,
        rows.map((r) => ({ id: r.id, text: r.text, headings: headingText({ location: JSON.parse(r.location) as ChunkLocation }), row: r })),
        plan.terms,
      );
      return ranked.slice(0, topK).map(({ candidate, score }) => ({ chunk: toChunk(candidate.row), score }));
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
    return this.read(() => this.knn(query.vector, topK, query.filter));
  }

  /** Exact KNN when filtered, or by the mode and the number of vectors; the sign-bit prefilter otherwise. */
  private knn(vector: Float32Array, topK: number, filter: KnowledgeFilter | undefined): ScoredChunk[] {
    const { bits, mode, prefilterFrom } = this.options;
    const filtered = filter !== undefined && Object.keys(filter).length > 0;
    const prefilter = !filtered && bits && (mode === 'binary' || (mode === 'auto' && this.cache.vectors() >= prefilterFrom));
    const target = { ctx: this.ctx, id: this.id, cache: this.cache };
    return prefilter ? prefilterKnn(target, vector, topK) : exactKnn(target, vector, topK, filter);
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
