import { KnowledgeError } from '../../../errors/knowledge-error.js';
import type { SqlClient } from '../../../storage/sql/index.js';

/**
 * The knowledge tables of a Postgres database (prefix `knowledge_`, own version table), so they can
 * share the storage database and schema. Chunk text is indexed by a generated `tsvector` column
 * (`english` configuration: stemming and stop words) with a GIN index. Vectors are kept in a
 * `real[]` column whether or not pgvector is installed: vector search casts them to pgvector's
 * `vector(n)`, and each index with an embedder gets a partial HNSW index on that cast (cosine), so
 * installing pgvector later needs no re-embedding.
 */
export const PG_KNOWLEDGE_SCHEMA_VERSION = 1;

const MIGRATIONS: Record<number, string[]> = {
  1: [
    `CREATE TABLE knowledge_indexes (
      id SERIAL PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      embedder_model TEXT,
      dimensions INTEGER,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE knowledge_documents (
      index_id INTEGER NOT NULL REFERENCES knowledge_indexes(id) ON DELETE CASCADE,
      uri TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      metadata JSONB NOT NULL,
      PRIMARY KEY (index_id, uri)
    )`,
    `CREATE TABLE knowledge_chunks (
      id BIGSERIAL PRIMARY KEY,
      index_id INTEGER NOT NULL,
      document_uri TEXT NOT NULL,
      idx INTEGER NOT NULL,
      text TEXT NOT NULL,
      tokens INTEGER NOT NULL,
      hash TEXT NOT NULL,
      location JSONB NOT NULL,
      metadata JSONB NOT NULL,
      vector REAL[],
      tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
      FOREIGN KEY (index_id, document_uri) REFERENCES knowledge_documents (index_id, uri) ON DELETE CASCADE
    )`,
    'CREATE INDEX knowledge_chunks_document ON knowledge_chunks (index_id, document_uri)',
    'CREATE INDEX knowledge_chunks_hash ON knowledge_chunks (index_id, hash)',
    'CREATE INDEX knowledge_chunks_tsv ON knowledge_chunks USING GIN (tsv)',
  ],
};

/** The text search configuration of the `tsv` column (queries must use the same). */
export const TS_CONFIG = 'english';

/** The partial HNSW index of knowledge index `id`. */
export const hnswIndexName = (id: number): string => `knowledge_chunks_hnsw_${id}`;

/** The largest dimension pgvector's HNSW index takes for `vector`; larger vectors are searched exactly. */
export const HNSW_MAX_DIMENSIONS = 2000;

/** Where pgvector's type and operators live, for qualified names (`"public".vector`). */
export interface PgVector {
  schema: string;
}

/** `vector(n)` qualified by the extension's schema. */
export const vectorType = (v: PgVector, dimensions: number): string => `"${v.schema}".vector(${dimensions})`;

/** The cosine distance operator, qualified. */
export const cosineOperator = (v: PgVector): string => `OPERATOR("${v.schema}".<=>)`;

/** SQL creating the partial HNSW index (cosine) of knowledge index `id`. */
export const createHnswSql = (v: PgVector, id: number, dimensions: number): string =>
  `CREATE INDEX IF NOT EXISTS ${hnswIndexName(id)} ON knowledge_chunks USING hnsw ((vector::${vectorType(v, dimensions)}) "${v.schema}".vector_cosine_ops) WHERE index_id = ${id}`;

/**
 * Brings the knowledge tables to the current version (call inside a transaction holding the
 * migration lock); tables written by a newer Corvid are refused before anything is written.
 */
export async function migratePgKnowledgeSchema(tx: SqlClient, location: string): Promise<void> {
  await tx.run('CREATE TABLE IF NOT EXISTS knowledge_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const rows = await tx.all<{ v: number | null }>('SELECT MAX(version) AS v FROM knowledge_schema');
  const current = rows[0]?.v ?? 0;
  if (current > PG_KNOWLEDGE_SCHEMA_VERSION) {
    throw new KnowledgeError(
      `The knowledge tables of ${location} were written by a newer Corvid (schema ${current}; this one knows ${PG_KNOWLEDGE_SCHEMA_VERSION}): upgrade Corvid. Nothing was changed.`,
      { kind: 'unsupported' },
    );
  }
  for (let v = current + 1; v <= PG_KNOWLEDGE_SCHEMA_VERSION; v++) {
    for (const statement of MIGRATIONS[v]!) await tx.run(statement);
    await tx.run('INSERT INTO knowledge_schema (version, applied_at) VALUES (?, ?)', [v, new Date().toISOString()]);
  }
}
