import { isAbsolute, resolve } from 'node:path';

import { KnowledgeError } from '../errors/knowledge-error.js';
import { loadPeer } from '../errors/load-peer.js';
import { ValidationError } from '../errors/validation-error.js';
import type { KnowledgeDocument } from '../types/knowledge.js';
import { sha256 } from './hash.js';
import type { KnowledgeSource, SourceListContext } from './knowledge-source.js';
import { assertReadOnlySelect } from './read-only-sql.js';

/** Options for `sqlSource`. */
export interface SqlSourceOptions {
  /**
   * The database: `postgres://…` / `postgresql://…` (needs `pg`), `mysql://…` (needs `mysql2`), or a
   * SQLite file (`sqlite:path`, `file:path` or a plain path).
   */
  url: string;
  /** One read-only `SELECT` (or `WITH … SELECT`); each row becomes a document. */
  query: string;
  /** The column holding the document's text. */
  text: string;
  /** The column holding the row's stable id (the document URI is `sql:<name>/<id>`). Default `id`. */
  id?: string;
  /** The column holding the title. */
  title?: string;
  /** A column holding a link to the row (kept as `metadata.url`). */
  link?: string;
  /** The source's name (part of every URI, so two SQL sources do not collide). Default `sql`. */
  name?: string;
  /** Relative SQLite paths resolve against this. Default: the working directory. */
  baseDir?: string;
}

type Row = Record<string, unknown>;

/**
 * The rows of a SQL query as documents: one per row, its URI `sql:<name>/<id>` stable across
 * ingests (so an unchanged row is skipped and a deleted row leaves the index), its text from
 * column `text`, the other scalar columns kept as metadata (filters match on them). The query must
 * be a single SELECT, and runs read-only (SQLite opened read-only, Postgres/MySQL in a read-only
 * transaction). `pg` and `mysql2` load at the first ingest.
 * @example
 * sqlSource({ url: 'postgres://localhost/app', query: 'select id, title, body from articles', text: 'body', title: 'title' })
 */
export function sqlSource(options: SqlSourceOptions): KnowledgeSource {
  const name = options?.name ?? 'sql';
  const where = `sql source "${name}"`;
  if (typeof options?.url !== 'string' || !options.url) throw new ValidationError(`${where}: "url" (the database) is required`);
  assertReadOnlySelect(options.query, where);
  if (typeof options.text !== 'string' || !options.text)
    throw new ValidationError(`${where}: "text" (the column with the text) is required`);
  const idColumn = options.id ?? 'id';
  return {
    name,
    async *list(context: SourceListContext): AsyncIterable<KnowledgeDocument> {
      context.signal?.throwIfAborted();
      let rows: Row[];
      try {
        rows = await readRows(options);
      } catch (err) {
        if (err instanceof ValidationError || err instanceof KnowledgeError) throw err;
        throw new KnowledgeError(`${where}: the query failed: ${(err as Error).message}`, { kind: 'load', cause: err });
      }
      const first = rows[0];
      if (first) {
        for (const column of [options.text, idColumn, options.title, options.link]) {
          if (column !== undefined && !(column in first)) {
            throw new KnowledgeError(`${where}: the query returns no column "${column}" (it returns ${Object.keys(first).join(', ')})`, {
              kind: 'load',
            });
          }
        }
      }
      for (const row of rows) {
        context.signal?.throwIfAborted();
        const id = row[idColumn];
        if (id === null || id === undefined || id === '') {
          context.report(new KnowledgeError(`${where}: a row has no ${idColumn}; it was skipped`, { kind: 'load' }));
          continue;
        }
        yield rowDocument(row, { ...options, name, idColumn, id: String(id) });
      }
    },
  };
}

function rowDocument(row: Row, o: SqlSourceOptions & { name: string; idColumn: string; id: string }): KnowledgeDocument {
  const uri = `sql:${o.name}/${o.id}`;
  const text = row[o.text] === null || row[o.text] === undefined ? '' : String(row[o.text]).replace(/\r\n?/g, '\n');
  const title = o.title && row[o.title] !== null && row[o.title] !== undefined ? String(row[o.title]) : undefined;
  const metadata: KnowledgeDocument['metadata'] = { format: 'text' };
  for (const [key, value] of Object.entries(row)) {
    if (key === o.text) continue;
    if (typeof value === 'string' || typeof value === 'boolean') metadata[key] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) metadata[key] = value;
    else if (typeof value === 'bigint') metadata[key] = Number(value);
    else if (value instanceof Date) metadata[key] = value.toISOString();
  }
  if (o.link && row[o.link] !== null && row[o.link] !== undefined) metadata.url = String(row[o.link]);
  if (title) metadata.title = title;
  // The title is part of what is indexed (and hashed): a renamed row is re-indexed.
  const body = title ? `${title}\n\n${text}` : text;
  return { uri, source: o.name, ...(title ? { title } : {}), text: body, contentHash: sha256(body), metadata };
}

type Driver = 'postgres' | 'mysql' | 'sqlite';

function driverOf(url: string): Driver {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  if (/^mysql:\/\//i.test(url)) return 'mysql';
  return 'sqlite';
}

async function readRows(options: SqlSourceOptions): Promise<Row[]> {
  const driver = driverOf(options.url);
  switch (driver) {
    case 'sqlite':
      return sqliteRows(options);
    case 'postgres':
      return postgresRows(options);
    case 'mysql':
      return mysqlRows(options);
    default: {
      const never: never = driver;
      throw new ValidationError(`unknown database driver ${String(never)}`);
    }
  }
}

async function sqliteRows(options: SqlSourceOptions): Promise<Row[]> {
  const Database = (await import('better-sqlite3')).default;
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(options.url);
  const raw = m ? decodeURIComponent(m[1]!.split('?')[0]!) : options.url;
  const path = isAbsolute(raw) ? raw : resolve(options.baseDir ?? process.cwd(), raw);
  let db;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new KnowledgeError(`sql source "${options.name ?? 'sql'}": cannot open the SQLite database ${path}: ${(err as Error).message}`, {
      kind: 'load',
      cause: err,
    });
  }
  try {
    const stmt = db.prepare(options.query);
    if (!stmt.reader || !stmt.readonly) throw new ValidationError(`sql source "${options.name ?? 'sql'}": "query" must only read`);
    return stmt.all() as Row[];
  } finally {
    db.close();
  }
}

async function postgresRows(options: SqlSourceOptions): Promise<Row[]> {
  const mod = await loadPeer({ packages: 'pg', feature: 'A sql knowledge source on Postgres', load: () => import('pg') });
  const pg = (mod as typeof mod & { default?: typeof mod }).default ?? mod;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query('BEGIN READ ONLY');
    const result = await client.query(options.query);
    await client.query('ROLLBACK');
    return result.rows as Row[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function mysqlRows(options: SqlSourceOptions): Promise<Row[]> {
  type Mysql = typeof import('mysql2/promise');
  const mod = (await loadPeer({
    packages: 'mysql2',
    feature: 'A sql knowledge source on MySQL',
    load: () => import('mysql2/promise'),
  })) as Mysql & {
    default?: Mysql;
  };
  const mysql = mod.default ?? mod;
  const connection = await mysql.createConnection(options.url);
  try {
    await connection.query('START TRANSACTION READ ONLY');
    const [rows] = await connection.query(options.query);
    await connection.query('ROLLBACK');
    return rows as Row[];
  } finally {
    await connection.end().catch(() => undefined);
  }
}
