import type BetterSqlite3 from 'better-sqlite3';

import { KnowledgeError } from '../../../errors/knowledge-error.js';
import { HEADING_WEIGHT } from '../../bm25.js';
import { headingText } from '../../text-terms.js';

/**
 * The knowledge tables of a SQLite file. They carry the prefix `knowledge_` and their own version
 * table, so they can live in the storage database (`.corvid/corvid.db`) without touching its schema.
 * Per index, two virtual tables are added at `openIndex`: `knowledge_fts_<id>` (FTS5 over chunk text,
 * external content `knowledge_chunks`) and, with an embedder, `knowledge_vec_<id>` (sqlite-vec vec0,
 * float32, cosine) and `knowledge_vecbits_<id>` (a plain table of sign bits, one per dimension, for
 * the binary prefilter; only when the dimension is a multiple of 8). `knowledge_chunks.vector` keeps the float32
 * vector too, for the prefilter's exact re-scoring. The FTS5 table is contentless, with two columns:
 * each chunk's heading path ({@link headingText}) and its text. Version 2 re-indexed the text-only
 * entries of version 1 with their headings; version 3 rebuilt the FTS5 tables with a column per field
 * and without Porter stemming.
 */
export const KNOWLEDGE_SCHEMA_VERSION = 3;

const MIGRATIONS: Record<number, string | ((db: BetterSqlite3.Database) => void)> = {
  1: `
    CREATE TABLE knowledge_indexes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL UNIQUE,
      embedder_model TEXT,
      dimensions INTEGER,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE knowledge_documents (
      index_id INTEGER NOT NULL REFERENCES knowledge_indexes(id) ON DELETE CASCADE,
      uri TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      metadata TEXT NOT NULL,
      PRIMARY KEY (index_id, uri)
    );
    CREATE TABLE knowledge_chunks (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      index_id INTEGER NOT NULL,
      document_uri TEXT NOT NULL,
      idx INTEGER NOT NULL,
      text TEXT NOT NULL,
      tokens INTEGER NOT NULL,
      hash TEXT NOT NULL,
      location TEXT NOT NULL,
      metadata TEXT NOT NULL,
      vector BLOB
    );
    CREATE INDEX knowledge_chunks_document ON knowledge_chunks (index_id, document_uri);
    CREATE INDEX knowledge_chunks_hash ON knowledge_chunks (index_id, hash);
  `,
  // Version 2 re-indexed version 1's FTS5 entries with their headings; version 3 rebuilds every FTS5 table.
  2: () => {},
  3: (db) => {
    for (const id of db.prepare('SELECT id FROM knowledge_indexes').pluck().all() as number[]) {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(ftsTable(id))) continue;
      db.exec(`DROP TABLE ${ftsTable(id)}`);
      createFts(db, id);
      insertFtsRows(db, id);
    }
  },
};

interface FtsSourceRow {
  id: number;
  text: string;
  location: string;
}

const ftsRows = (db: BetterSqlite3.Database, id: number, where: string, params: unknown[]): FtsSourceRow[] =>
  db.prepare(`SELECT id, text, location FROM knowledge_chunks WHERE index_id = ? ${where}`).all(id, ...params) as FtsSourceRow[];

const chunkOf = (r: FtsSourceRow) => ({ text: r.text, location: JSON.parse(r.location) as { headings?: string[] } });

/** Indexes the chunks of index `id` in its FTS5 table. */
function insertFtsRows(db: BetterSqlite3.Database, id: number): void {
  const insert = db.prepare(insertFtsSql(id));
  for (const r of ftsRows(db, id, '', [])) insert.run(r.id, headingText(chunkOf(r)), r.text);
}

/** SQL indexing one chunk in the FTS5 table of index `id`: rowid (the chunk's), heading path, text. */
export const insertFtsSql = (id: number): string => `INSERT INTO ${ftsTable(id)} (rowid, headings, text) VALUES (?, ?, ?)`;

/**
 * Removes chunks of index `id` (`where` narrows them: `AND document_uri = ?`) from its FTS5 table,
 * giving FTS5 the values they were indexed with, as a contentless table requires.
 */
export function deleteFtsRows(db: BetterSqlite3.Database, id: number, where: string, params: unknown[]): void {
  const del = db.prepare(`INSERT INTO ${ftsTable(id)} (${ftsTable(id)}, rowid, headings, text) VALUES ('delete', ?, ?, ?)`);
  for (const r of ftsRows(db, id, where, params)) del.run(r.id, headingText(chunkOf(r)), r.text);
}

/** The FTS5 table of index `id`. */
export const ftsTable = (id: number): string => `knowledge_fts_${id}`;
/** The vec0 table of index `id`. */
export const vecTable = (id: number): string => `knowledge_vec_${id}`;

/** The sign-bit table of index `id`. */
export const bitsTable = (id: number): string => `knowledge_vecbits_${id}`;

/**
 * SQL creating the sign-bit table of an index. A plain table, scanned with `vec_distance_hamming`:
 * its cost does not grow with the number of candidates, unlike a vec0 `bit[]` KNN query.
 */
export const createBitsSql = (id: number): string =>
  `CREATE TABLE IF NOT EXISTS ${bitsTable(id)} (id INTEGER PRIMARY KEY, bits BLOB NOT NULL)`;

/**
 * The FTS5 tokenizer of every index: unicode61 words, lower-cased, without diacritics, unstemmed
 * (as the memory store counts them, which keeps diacritics; Porter stemming ranked worse on the tuning sets of
 * bench/knowledge-quality.mjs).
 */
export const FTS_TOKENIZE = 'unicode61';

/**
 * Creates the FTS5 table of index `id` when it is missing: contentless, columns `headings` and
 * `text` ({@link FTS_TOKENIZE}), ranked by `bm25()` with the heading column weighted
 * {@link HEADING_WEIGHT}.
 */
export function createFts(db: BetterSqlite3.Database, id: number): void {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(ftsTable(id))) return;
  db.exec(`CREATE VIRTUAL TABLE ${ftsTable(id)} USING fts5(headings, text, content='', tokenize='${FTS_TOKENIZE}')`);
  db.prepare(`INSERT INTO ${ftsTable(id)} (${ftsTable(id)}, rank) VALUES ('rank', ?)`).run(`bm25(${HEADING_WEIGHT}, 1)`);
}

/** SQL creating the vec0 table of an index (cosine distance). */
export const createVecSql = (id: number, dimensions: number): string =>
  `CREATE VIRTUAL TABLE IF NOT EXISTS ${vecTable(id)} USING vec0(embedding float[${dimensions}] distance_metric=cosine)`;

/**
 * Brings the knowledge tables to the current version in one transaction; a file written by a newer
 * version is refused before anything is written.
 */
export function migrateKnowledgeSchema(db: BetterSqlite3.Database, location: string): number {
  const run = db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS knowledge_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const current = (db.prepare('SELECT MAX(version) AS v FROM knowledge_schema').get() as { v: number | null }).v ?? 0;
    if (current > KNOWLEDGE_SCHEMA_VERSION) {
      throw new KnowledgeError(
        `The knowledge tables of ${location} were written by a newer Corvid (schema ${current}; this one knows ${KNOWLEDGE_SCHEMA_VERSION}): upgrade Corvid. Nothing was changed.`,
        { kind: 'unsupported' },
      );
    }
    for (let v = current + 1; v <= KNOWLEDGE_SCHEMA_VERSION; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.prepare('INSERT INTO knowledge_schema (version, applied_at) VALUES (?, ?)').run(v, new Date().toISOString());
    }
    return KNOWLEDGE_SCHEMA_VERSION;
  });
  return run.immediate();
}
