import { KnowledgeError } from '../../../errors/knowledge-error.js';
import { ValidationError } from '../../../errors/validation-error.js';
import { openPgPool, type PgClient } from '../../../storage/postgres/index.js';
import type { IndexEmbedder, KnowledgeIndex, KnowledgeIndexInfo, KnowledgeStore } from '../../../types/knowledge.js';
import { type PgKnowledgeContext, pgTransaction, type PgVectorStatus } from './pg-knowledge-context.js';
import { pgIndexInfo, PostgresKnowledgeIndex } from './postgres-knowledge-index.js';
import { createHnswSql, HNSW_MAX_DIMENSIONS, hnswIndexName, migratePgKnowledgeSchema } from './schema.js';

/** Where a Postgres knowledge store lives. */
export interface PostgresKnowledgeStoreOptions {
  /** `postgres://user:password@host:5432/db`. */
  url: string;
  /** A schema for the tables (created when missing); default: the connection's search_path. */
  schema?: string;
  /** Connections in the pool (default 4). */
  poolSize?: number;
  /** How long opening a connection may take (default 10000 ms). */
  connectTimeoutMs?: number;
  /** `false` does not try to create pgvector: keyword search only (default `true`). */
  vectors?: boolean;
}

interface IndexRow {
  id: number;
  embedder_model: string | null;
  dimensions: number | null;
}

/**
 * Opens a knowledge store in PostgreSQL: keyword search over a generated `tsvector` column (GIN,
 * ranked by `ts_rank_cd`) and cosine vector search with pgvector, which the store creates
 * (`CREATE EXTENSION IF NOT EXISTS vector`) when the server has it. Without pgvector, ingest and
 * keyword search work, vectors are still stored (`real[]`), and vector search fails with a
 * KnowledgeError of kind `unsupported` that says how to install it. Tables carry the prefix
 * `knowledge_`, so they can share the storage database; `pg` is loaded on first use.
 */
export async function openPostgresKnowledgeStore(options: PostgresKnowledgeStoreOptions): Promise<KnowledgeStore> {
  if (!options.url) throw new ValidationError('The Postgres knowledge store needs a url, e.g. postgres://user:password@localhost:5432/app');
  const { pool, client, location } = await openPgPool({
    url: options.url,
    schema: options.schema,
    max: options.poolSize ?? 4,
    connectTimeoutMs: options.connectTimeoutMs,
    applicationName: 'corvid-knowledge',
  });
  try {
    const { vector, serverMajor } = await pgTransaction(client, async (tx) => {
      await tx.run('SELECT pg_advisory_xact_lock(hashtext(?))', [`corvid_knowledge_schema:${options.schema ?? ''}`]);
      if (options.schema) await tx.run(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      await migratePgKnowledgeSchema(tx, location);
      const version = await tx.column<string>('SHOW server_version_num');
      const status =
        options.vectors === false ? { ok: false as const, reason: 'vectors were turned off for this store' } : await createPgVector(tx);
      return { vector: status, serverMajor: Math.floor(Number(version[0]) / 10_000) || 0 };
    });
    return new PostgresKnowledgeStore({ client, location, vector, serverMajor }, pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}

/** Creates pgvector when missing (inside a savepoint: a failure leaves the transaction usable). */
async function createPgVector(tx: PgClient): Promise<PgVectorStatus> {
  await tx.run('SAVEPOINT corvid_pgvector');
  try {
    await tx.run('CREATE EXTENSION IF NOT EXISTS vector');
    await tx.run('RELEASE SAVEPOINT corvid_pgvector');
  } catch (err) {
    await tx.run('ROLLBACK TO SAVEPOINT corvid_pgvector');
    const cause = (err as { cause?: { message?: string } }).cause;
    return { ok: false, reason: (cause?.message ?? (err as Error).message).split('\n')[0]!.slice(0, 200) };
  }
  const schema = await tx.column<string>(
    "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
  );
  return { ok: true, schema: schema[0]! };
}

const sameEmbedder = (row: IndexRow, e: IndexEmbedder): boolean => row.embedder_model === e.model && row.dimensions === e.dimensions;

const describeEmbedder = (row: IndexRow): string =>
  row.embedder_model === null ? 'no embedder' : `${row.embedder_model} (${row.dimensions} dimensions)`;

class PostgresKnowledgeStore implements KnowledgeStore {
  private closed = false;

  constructor(
    private readonly ctx: PgKnowledgeContext,
    private readonly pool: { end(): Promise<void> },
  ) {}

  private check(): void {
    if (this.closed) throw new KnowledgeError('This Postgres knowledge store was closed', { kind: 'failed' });
  }

  async openIndex(name: string, options: { embedder?: IndexEmbedder } = {}): Promise<KnowledgeIndex> {
    this.check();
    const wanted = options.embedder;
    if (!name) throw new KnowledgeError('A knowledge index needs a name', { kind: 'failed' });
    if (wanted && (!Number.isInteger(wanted.dimensions) || wanted.dimensions <= 0)) {
      throw new KnowledgeError(`Embedder ${wanted.model} of knowledge index "${name}" has an invalid dimension ${wanted.dimensions}`, {
        kind: 'dimension',
        index: name,
      });
    }
    const row = await pgTransaction(this.ctx.client, async (tx) => {
      await tx.run(
        'INSERT INTO knowledge_indexes (name, embedder_model, dimensions, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING',
        [name, wanted?.model ?? null, wanted?.dimensions ?? null, new Date().toISOString()],
      );
      const [found] = await tx.all<IndexRow>('SELECT id, embedder_model, dimensions FROM knowledge_indexes WHERE name = ? FOR UPDATE', [
        name,
      ]);
      if (!wanted || sameEmbedder(found!, wanted)) return found!;
      const empty = (await pgIndexInfo({ client: tx }, found!.id))!.chunks === 0;
      if (found!.embedder_model !== null || !empty) {
        throw new KnowledgeError(
          `Knowledge index "${name}" was built with ${describeEmbedder(found!)}, not ${wanted.model} (${wanted.dimensions} dimensions): ` +
            `re-index with ${found!.embedder_model ?? 'no embedder'} or drop it (dropIndex("${name}")) and ingest again`,
          { kind: 'embedder_mismatch', index: name },
        );
      }
      await tx.run('UPDATE knowledge_indexes SET embedder_model = ?, dimensions = ? WHERE id = ?', [
        wanted.model,
        wanted.dimensions,
        found!.id,
      ]);
      return { ...found!, embedder_model: wanted.model, dimensions: wanted.dimensions };
    });
    const v = this.ctx.vector;
    if (v.ok && row.dimensions !== null && row.dimensions <= HNSW_MAX_DIMENSIONS) {
      await this.ctx.client.run(createHnswSql(v, row.id, row.dimensions));
    }
    const embedder =
      row.embedder_model !== null && row.dimensions !== null ? { model: row.embedder_model, dimensions: row.dimensions } : undefined;
    return new PostgresKnowledgeIndex(this.ctx, name, row.id, embedder);
  }

  async listIndexes(): Promise<KnowledgeIndexInfo[]> {
    this.check();
    const ids = await this.ctx.client.column<number>('SELECT id FROM knowledge_indexes ORDER BY name');
    const infos = await Promise.all(ids.map((id) => pgIndexInfo(this.ctx, id)));
    return infos.filter((i): i is KnowledgeIndexInfo => i !== undefined);
  }

  async dropIndex(name: string): Promise<boolean> {
    this.check();
    return pgTransaction(this.ctx.client, async (tx) => {
      const [id] = await tx.column<number>('SELECT id FROM knowledge_indexes WHERE name = ? FOR UPDATE', [name]);
      if (id === undefined) return false;
      await tx.run(`DROP INDEX IF EXISTS ${hnswIndexName(id)}`);
      await tx.run('DELETE FROM knowledge_indexes WHERE id = ?', [id]);
      return true;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
