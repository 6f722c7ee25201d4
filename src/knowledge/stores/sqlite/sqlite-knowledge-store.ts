import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type BetterSqlite3 from 'better-sqlite3';

import { KnowledgeError } from '../../../errors/knowledge-error.js';
import { loadSqlite, sqliteError } from '../../../storage/sqlite/index.js';
import type { IndexEmbedder, KnowledgeIndex, KnowledgeIndexInfo, KnowledgeStore } from '../../../types/knowledge.js';
import { dropKeywordTables } from './common-words.js';
import { bitsTable, createBitsSql, createFts, createVecSql, ftsTable, migrateKnowledgeSchema, vecTable } from './schema.js';
import { dropIndexCache } from './sqlite-index-cache.js';
import { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';
import { indexInfo, SqliteKnowledgeIndex, type SqliteSearchOptions, type SqliteVectorSearchMode } from './sqlite-knowledge-index.js';
import { loadSqliteVec, vecUnsupported } from './sqlite-vec-loader.js';

/** Where a SQLite knowledge store lives: a file (created with its folder when missing) or an open connection. */
export type SqliteKnowledgeStoreOptions = ({ path: string; db?: undefined } | { db: BetterSqlite3.Database; path?: undefined }) & {
  /** How long a write waits for another connection's lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /** `false` skips loading sqlite-vec: keyword search only (default `true`). */
  vectors?: boolean;
  /**
   * How unfiltered vector searches find neighbours. `exact` compares the query with every vector
   * (about 1 ms per 1,000 vectors of 384 dimensions). `binary` takes the `max(1000, 20 × topK)`
   * nearest by Hamming distance of their sign bits (kept in memory, 48 bytes a vector of 384
   * dimensions) and re-scores those exactly: exact scores, approximate recall (0.98 at 100,000
   * vectors in BENCHMARKS.md). `auto` (default) is `exact` below `prefilterFrom` vectors and
   * `binary` from there. Filtered searches are always exact; indexes whose dimension is not a
   * multiple of 8 (or created before sign bits were stored) are always searched exactly.
   */
  vectorSearch?: SqliteVectorSearchMode;
  /** With `vectorSearch: 'auto'`, the number of vectors of an index from which it is prefiltered (default 20,000). */
  prefilterFrom?: number;
  /**
   * Keyword search leaves out the query's words found in more than this share of an index's chunks
   * when the query has rarer words (default 0.5; 1 keeps every word). From half the chunks a word
   * weighs nothing in FTS5's BM25 (its idf is clamped to 1e-6), yet it makes FTS5 score most of the
   * index: leaving it out keeps the ranking and saves that work. A lower share saves more, at the
   * price of ranking changes (a word in a third of the chunks has an idf of up to 0.69).
   */
  commonWordShare?: number;
};

/** The default `prefilterFrom`: below it, an exact scan takes about 20 ms or less. */
export const DEFAULT_PREFILTER_FROM = 20_000;

/** The default `commonWordShare`: the share from which FTS5's BM25 gives a word no weight. */
export const DEFAULT_COMMON_WORD_SHARE = 0.5;

interface IndexRow {
  id: number;
  embedder_model: string | null;
  dimensions: number | null;
}

/**
 * Opens a knowledge store in a SQLite file: BM25 keyword search with FTS5, cosine vector search with
 * the sqlite-vec extension. Its tables (prefix `knowledge_`, own schema version) can share the storage
 * database (`.corvid/corvid.db`). With `{ db }` the caller's better-sqlite3 connection is used and
 * left open by `close()`. When sqlite-vec cannot be loaded, keyword search still works and vector
 * work fails with a KnowledgeError of kind `unsupported` that says how to install it.
 */
export async function openSqliteKnowledgeStore(options: SqliteKnowledgeStoreOptions): Promise<KnowledgeStore> {
  checkSearchOptions(options);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const owned = options.db === undefined;
  let db: BetterSqlite3.Database;
  let location: string;
  if (options.db) {
    db = options.db;
    location = db.memory ? 'sqlite::memory:' : resolve(db.name);
  } else {
    const inMemory = options.path === ':memory:';
    location = inMemory ? 'sqlite::memory:' : resolve(options.path);
    const Database = await loadSqlite();
    try {
      if (!inMemory && !existsSync(dirname(location))) mkdirSync(dirname(location), { recursive: true, mode: 0o700 });
      db = new Database(inMemory ? ':memory:' : location, { timeout: busyTimeoutMs });
    } catch (err) {
      throw sqliteError(err, location, busyTimeoutMs);
    }
  }
  try {
    if (!db.memory) db.pragma('journal_mode = WAL');
    if (owned) db.pragma('synchronous = NORMAL');
    const vec =
      options.vectors === false ? { ok: false as const, reason: 'vectors were turned off for this store' } : await loadSqliteVec(db);
    const ctx = new SqliteKnowledgeContext(db, location, busyTimeoutMs, vec);
    await ctx.write(() => migrateKnowledgeSchema(db, location));
    return new SqliteKnowledgeStore(ctx, owned, {
      mode: options.vectorSearch ?? 'auto',
      prefilterFrom: options.prefilterFrom ?? DEFAULT_PREFILTER_FROM,
      commonWordShare: options.commonWordShare ?? DEFAULT_COMMON_WORD_SHARE,
    });
  } catch (err) {
    if (owned) db.close();
    if (KnowledgeError.isInstance(err)) throw err;
    throw sqliteError(err, location, busyTimeoutMs);
  }
}

function checkSearchOptions(o: SqliteKnowledgeStoreOptions): void {
  const invalid = (message: string) => new KnowledgeError(`openSqliteKnowledgeStore: ${message}`, { kind: 'failed' });
  if (o.vectorSearch !== undefined && !['auto', 'exact', 'binary'].includes(o.vectorSearch))
    throw invalid(`vectorSearch is auto, exact or binary, not ${JSON.stringify(o.vectorSearch)}`);
  if (o.prefilterFrom !== undefined && !(Number.isInteger(o.prefilterFrom) && o.prefilterFrom >= 0))
    throw invalid(`prefilterFrom is a number of vectors (an integer, 0 or more), not ${String(o.prefilterFrom)}`);
  if (o.commonWordShare !== undefined && !(o.commonWordShare > 0 && o.commonWordShare <= 1))
    throw invalid(`commonWordShare is a share of the chunks above 0 and at most 1, not ${String(o.commonWordShare)}`);
}

const sameEmbedder = (row: IndexRow, e: IndexEmbedder): boolean => row.embedder_model === e.model && row.dimensions === e.dimensions;

const describe = (row: IndexRow): string =>
  row.embedder_model === null ? 'no embedder' : `${row.embedder_model} (${row.dimensions} dimensions)`;

class SqliteKnowledgeStore implements KnowledgeStore {
  private closed = false;

  constructor(
    private readonly ctx: SqliteKnowledgeContext,
    private readonly owned: boolean,
    private readonly search: Omit<SqliteSearchOptions, 'bits'>,
  ) {}

  private check(): void {
    if (this.closed) throw new KnowledgeError('This SQLite knowledge store was closed', { kind: 'failed' });
  }

  openIndex(name: string, options: { embedder?: IndexEmbedder } = {}): Promise<KnowledgeIndex> {
    this.check();
    const wanted = options.embedder;
    if (!name) return Promise.reject(new KnowledgeError('A knowledge index needs a name', { kind: 'failed' }));
    if (wanted && (!Number.isInteger(wanted.dimensions) || wanted.dimensions <= 0)) {
      return Promise.reject(
        new KnowledgeError(`Embedder ${wanted.model} of knowledge index "${name}" has an invalid dimension ${wanted.dimensions}`, {
          kind: 'dimension',
          index: name,
        }),
      );
    }
    return this.ctx.write(() => {
      const select = this.ctx.prepare('SELECT id, embedder_model, dimensions FROM knowledge_indexes WHERE name = ?');
      let row = select.get(name) as IndexRow | undefined;
      if (!row) {
        this.ctx
          .prepare('INSERT INTO knowledge_indexes (name, embedder_model, dimensions, updated_at) VALUES (?, ?, ?, ?)')
          .run(name, wanted?.model ?? null, wanted?.dimensions ?? null, new Date().toISOString());
        row = select.get(name) as IndexRow;
      } else if (wanted && !sameEmbedder(row, wanted)) {
        const empty = indexInfo(this.ctx, row.id)!.chunks === 0;
        if (row.embedder_model !== null || !empty) {
          throw new KnowledgeError(
            `Knowledge index "${name}" was built with ${describe(row)}, not ${wanted.model} (${wanted.dimensions} dimensions): ` +
              `re-index with ${row.embedder_model ?? 'no embedder'} or drop it (dropIndex("${name}")) and ingest again`,
            { kind: 'embedder_mismatch', index: name },
          );
        }
        this.ctx
          .prepare('UPDATE knowledge_indexes SET embedder_model = ?, dimensions = ? WHERE id = ?')
          .run(wanted.model, wanted.dimensions, row.id);
        row = { ...row, embedder_model: wanted.model, dimensions: wanted.dimensions };
      }
      createFts(this.ctx.db, row.id);
      let bits = false;
      if (row.dimensions !== null && this.ctx.vec.ok) {
        this.ctx.db.exec(createVecSql(row.id, row.dimensions));
        // The bit table is created with the index (an existing index without one keeps exact search).
        bits = this.ctx.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(bitsTable(row.id)) !== undefined;
        if (!bits && row.dimensions % 8 === 0 && indexInfo(this.ctx, row.id)!.chunks === 0) {
          this.ctx.db.exec(createBitsSql(row.id));
          bits = true;
        }
      }
      const embedder =
        row.embedder_model !== null && row.dimensions !== null ? { model: row.embedder_model, dimensions: row.dimensions } : undefined;
      return new SqliteKnowledgeIndex(this.ctx, name, row.id, embedder, { ...this.search, bits });
    });
  }

  listIndexes(): Promise<KnowledgeIndexInfo[]> {
    this.check();
    return this.ctx.read(() => {
      const ids = this.ctx.prepare('SELECT id FROM knowledge_indexes ORDER BY name').pluck().all() as number[];
      return ids.map((id) => indexInfo(this.ctx, id)).filter((i): i is KnowledgeIndexInfo => i !== undefined);
    });
  }

  dropIndex(name: string): Promise<boolean> {
    this.check();
    return this.ctx.write(() => {
      const id = this.ctx.prepare('SELECT id FROM knowledge_indexes WHERE name = ?').pluck().get(name) as number | undefined;
      if (id === undefined) return false;
      const hasVec = this.ctx.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(vecTable(id)) !== undefined;
      if (hasVec && !this.ctx.vec.ok) throw vecUnsupported(this.ctx.vec, name, 'Dropping the vectors');
      if (hasVec) this.ctx.db.exec(`DROP TABLE ${vecTable(id)}`);
      this.ctx.db.exec(`DROP TABLE IF EXISTS ${bitsTable(id)}`);
      dropKeywordTables(this.ctx, id);
      dropIndexCache(this.ctx.db, id);
      this.ctx.db.exec(`DROP TABLE IF EXISTS ${ftsTable(id)}`);
      this.ctx.prepare('DELETE FROM knowledge_chunks WHERE index_id = ?').run(id);
      this.ctx.prepare('DELETE FROM knowledge_documents WHERE index_id = ?').run(id);
      this.ctx.prepare('DELETE FROM knowledge_indexes WHERE id = ?').run(id);
      return true;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ctx.read(() => undefined);
    this.ctx.close();
    if (this.owned && this.ctx.db.open) this.ctx.db.close();
  }
}
