import { KnowledgeError } from '../../../errors/knowledge-error.js';
import type {
  EmbeddedChunk,
  IndexEmbedder,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeFilter,
  KnowledgeIndex,
  KnowledgeIndexInfo,
  ScoredChunk,
} from '../../../types/knowledge.js';
import { pgFilterSql } from './filter-sql.js';
import { type PgKnowledgeContext, pgTransaction, pgvectorMissing } from './pg-knowledge-context.js';
import { cosineOperator, TS_CONFIG, vectorType } from './schema.js';

interface ChunkRow {
  document_uri: string;
  idx: number;
  text: string;
  tokens: number;
  hash: string;
  location: KnowledgeChunk['location'];
  metadata: KnowledgeChunk['metadata'];
  score: number;
}

const CHUNK_COLUMNS = 'c.document_uri, c.idx, c.text, c.tokens, c.hash, c.location, c.metadata';

/** Words of a query searched at most (each one a `plainto_tsquery`, OR-ed). */
const MAX_QUERY_WORDS = 64;

const toScored = (r: ChunkRow): ScoredChunk => ({
  chunk: {
    id: `${r.document_uri}#${r.idx}`,
    documentUri: r.document_uri,
    index: r.idx,
    text: r.text,
    tokens: r.tokens,
    hash: r.hash,
    location: r.location,
    metadata: r.metadata,
  },
  score: Number(r.score),
});

/** A Postgres array literal of a vector (`{0.1,0.2}`), bound as text and cast to `real[]`. */
const arrayLiteral = (v: Float32Array): string => `{${Array.from(v).join(',')}}`;

/** pgvector's text form of a vector (`[0.1,0.2]`). */
const vectorLiteral = (v: Float32Array): string => `[${Array.from(v).join(',')}]`;

/**
 * One index of a Postgres knowledge store: rows in `knowledge_documents` / `knowledge_chunks`;
 * keyword search ranks `tsvector` matches by `ts_rank_cd` (any word of the query, stemmed);
 * vector search orders by pgvector's cosine distance on the `real[]` vectors cast to `vector(n)`
 * (through the index's partial HNSW index when it has one). Metadata filters: see {@link pgFilterSql}.
 */
export class PostgresKnowledgeIndex implements KnowledgeIndex {
  constructor(
    private readonly ctx: PgKnowledgeContext,
    readonly name: string,
    private readonly id: number,
    private readonly embedder: IndexEmbedder | undefined,
  ) {}

  async documentHashes(): Promise<Map<string, string>> {
    const rows = await this.ctx.client.all<{ uri: string; content_hash: string }>(
      'SELECT uri, content_hash FROM knowledge_documents WHERE index_id = ?',
      [this.id],
    );
    return new Map(rows.map((r) => [r.uri, r.content_hash]));
  }

  async putDocument(document: KnowledgeDocument, chunks: EmbeddedChunk[]): Promise<void> {
    for (const chunk of chunks) if (chunk.vector) this.checkVector(chunk, document.uri);
    await pgTransaction(this.ctx.client, async (tx) => {
      await tx.run('DELETE FROM knowledge_documents WHERE index_id = ? AND uri = ?', [this.id, document.uri]);
      await tx.run('INSERT INTO knowledge_documents (index_id, uri, content_hash, metadata) VALUES (?, ?, ?, ?::jsonb)', [
        this.id,
        document.uri,
        document.contentHash,
        JSON.stringify(document.metadata),
      ]);
      if (chunks.length > 0) {
        await tx.query(
          'INSERT INTO knowledge_chunks (index_id, document_uri, idx, text, tokens, hash, location, metadata, vector) ' +
            'SELECT ?, ?, u.idx, u.text, u.tokens, u.hash, u.location::jsonb, u.metadata::jsonb, u.vector::real[] ' +
            'FROM unnest(?::int[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::text[]) AS u(idx, text, tokens, hash, location, metadata, vector)',
          [
            this.id,
            document.uri,
            chunks.map((c) => c.index),
            chunks.map((c) => c.text),
            chunks.map((c) => c.tokens),
            chunks.map((c) => c.hash),
            chunks.map((c) => JSON.stringify(c.location)),
            chunks.map((c) => JSON.stringify(c.metadata)),
            chunks.map((c) => (c.vector ? arrayLiteral(c.vector) : null)),
          ],
        );
      }
      await this.touch(tx);
    });
  }

  /** Refuses (before anything is written) a vector the index cannot hold. */
  private checkVector(chunk: EmbeddedChunk, uri: string): void {
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
    if (chunk.vector!.length !== this.embedder.dimensions) {
      throw new KnowledgeError(
        `Chunk ${chunk.id} has a vector of ${chunk.vector!.length} dimensions; knowledge index "${this.name}" holds ${this.embedder.dimensions} (${this.embedder.model}). The document was not changed.`,
        { kind: 'dimension', index: this.name, uri },
      );
    }
  }

  private async touch(tx: Pick<PgKnowledgeContext['client'], 'run'>): Promise<void> {
    await tx.run('UPDATE knowledge_indexes SET updated_at = ? WHERE id = ?', [new Date().toISOString(), this.id]);
  }

  async deleteDocuments(uris: string[]): Promise<void> {
    if (uris.length === 0) return;
    await pgTransaction(this.ctx.client, async (tx) => {
      const { rowCount } = await tx.query('DELETE FROM knowledge_documents WHERE index_id = ? AND uri = ANY(?::text[])', [
        this.id,
        [...new Set(uris)],
      ]);
      if ((rowCount ?? 0) > 0) await this.touch(tx);
    });
  }

  async vectorsByHash(hashes: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0 || !this.embedder) return out;
    const { rows } = await this.ctx.client.query(
      'SELECT DISTINCT ON (hash) hash, vector FROM knowledge_chunks WHERE index_id = ? AND hash = ANY(?::text[]) AND vector IS NOT NULL',
      [this.id, [...new Set(hashes)]],
    );
    for (const r of rows as { hash: string; vector: number[] }[]) {
      if (r.vector.length === this.embedder.dimensions) out.set(r.hash, Float32Array.from(r.vector));
    }
    return out;
  }

  async keywordSearch(query: { text: string; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    const words = [...new Set((query.text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))].slice(0, MAX_QUERY_WORDS);
    const where = pgFilterSql(query.filter);
    const topK = Math.floor(query.topK);
    if (words.length === 0 || topK <= 0) return [];
    const tsquery = words.map(() => `plainto_tsquery('${TS_CONFIG}', ?)`).join(' || ');
    const { rows } = await this.ctx.client.query(
      `SELECT ${CHUNK_COLUMNS}, ts_rank_cd(c.tsv, q.q, 1) AS score FROM knowledge_chunks c, (SELECT ${tsquery} AS q) q ` +
        `WHERE c.index_id = ? AND c.tsv @@ q.q${where.sql} ORDER BY score DESC, c.id LIMIT ?`,
      [...words, this.id, ...where.params, topK],
    );
    return (rows as ChunkRow[]).map(toScored);
  }

  async vectorSearch(query: { vector: Float32Array; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]> {
    const embedder = this.embedder;
    if (!embedder) {
      throw new KnowledgeError(
        `Knowledge index "${this.name}" has no embedder, so it has no vectors to search: open it with an embedder and re-index`,
        { kind: 'no_embedder', index: this.name },
      );
    }
    if (query.vector.length !== embedder.dimensions) {
      throw new KnowledgeError(
        `The query vector has ${query.vector.length} dimensions; knowledge index "${this.name}" holds ${embedder.dimensions} (${embedder.model})`,
        { kind: 'dimension', index: this.name },
      );
    }
    const v = this.ctx.vector;
    if (!v.ok) throw pgvectorMissing(this.ctx, v.reason, this.name);
    const topK = Math.floor(query.topK);
    if (topK <= 0) return [];
    const type = vectorType(v, embedder.dimensions);
    const distance = `(c.vector::${type}) ${cosineOperator(v)} ?::${type}`;
    const where = pgFilterSql(query.filter);
    const literal = vectorLiteral(query.vector);
    return pgTransaction(this.ctx.client, async (tx) => {
      // HNSW returns at most ef_search candidates, before the filter: widen it to topK (× 10 when filtered).
      const ef = Math.min(1000, Math.max(40, topK * (where.sql ? 10 : 1)));
      await tx.run(`SET LOCAL hnsw.ef_search = ${ef}`);
      const { rows } = await tx.query(
        `SELECT ${CHUNK_COLUMNS}, 1 - (${distance}) AS score FROM knowledge_chunks c ` +
          `WHERE c.index_id = ? AND c.vector IS NOT NULL${where.sql} ORDER BY ${distance}, c.id LIMIT ?`,
        [literal, this.id, ...where.params, literal, topK],
      );
      return (rows as ChunkRow[]).map(toScored);
    });
  }

  async stats(): Promise<KnowledgeIndexInfo> {
    return (await pgIndexInfo(this.ctx, this.id))!;
  }
}

/** What index `id` holds; `undefined` when it does not exist. */
export async function pgIndexInfo(ctx: Pick<PgKnowledgeContext, 'client'>, id: number): Promise<KnowledgeIndexInfo | undefined> {
  const rows = await ctx.client.all<{
    name: string;
    embedder_model: string | null;
    dimensions: number | null;
    updated_at: string;
    documents: number;
    chunks: number;
  }>(
    'SELECT i.name, i.embedder_model, i.dimensions, i.updated_at, ' +
      '(SELECT COUNT(*) FROM knowledge_documents d WHERE d.index_id = i.id) AS documents, ' +
      '(SELECT COUNT(*) FROM knowledge_chunks c WHERE c.index_id = i.id) AS chunks FROM knowledge_indexes i WHERE i.id = ?',
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    name: row.name,
    ...(row.embedder_model !== null && row.dimensions !== null
      ? { embedder: { model: row.embedder_model, dimensions: row.dimensions } }
      : {}),
    documents: Number(row.documents),
    chunks: Number(row.chunks),
    updatedAt: row.updated_at,
  };
}
