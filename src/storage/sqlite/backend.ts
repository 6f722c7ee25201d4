import { StorageError } from '../../errors/storage-error.js';
import type { MessageSearchOptions } from '../../types/storage/memories.js';
import type { MemoryRow } from '../shared/rows.js';
import type { EntryInsert, EntryTextRow, MemorySearchFilter, SqlBackend, SqlClient, SqlValue } from '../sql/sql-client.js';
import { MEMORY_COLUMNS, memoryConditions } from '../sql/sql-memories.js';
import type { SqliteClient } from './driver.js';

/** Indexes a batch of just-inserted entries (every insert path must run it, in the same transaction). */
const INDEX_ENTRIES = `INSERT INTO corvid_entries_fts (rowid, search_text)
  SELECT id, search_text FROM corvid_entries WHERE session_id = ? AND seq BETWEEN ? AND ? AND search_text IS NOT NULL`;

const INSERT_ENTRY = `INSERT INTO corvid_entries (session_id, seq, type, agent, role, run_id, message, usage_json, data, search_text, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** An FTS5 query matching any of the terms (each quoted, so no FTS syntax leaks in). */
const ftsQuery = (terms: string[]) => terms.map((t) => `"${t}"`).join(' OR ');

/** SQLite specifics: one writer at a time (BEGIN IMMEDIATE), FTS5 with bm25 ranking. */
export class SqliteBackend implements SqlBackend {
  readonly name = 'sqlite' as const;
  readonly forUpdate = '';

  constructor(
    readonly db: SqliteClient,
    readonly location: string,
  ) {}

  upsert(table: string, columns: string[], conflict: string[], update: string[]): string {
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
      ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  }

  insertIgnore(table: string, columns: string[]): string {
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;
  }

  isUniqueViolation(error: unknown): boolean {
    const e = error as { code?: string; cause?: { code?: string } };
    const code = String(e?.cause?.code ?? e?.code ?? '');
    return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  }

  appendEntries(sessionId: string, rows: EntryInsert[], now: number, expectedLastSeq?: number): Promise<number[] | undefined> {
    return this.db.immediate(() => this.appendSync(sessionId, rows, now, expectedLastSeq));
  }

  /** `tx` is this connection's open transaction (SQLite has one writer): the statements run in it. */
  async appendInTransaction(
    _tx: SqlClient,
    sessionId: string,
    rows: EntryInsert[],
    now: number,
    expectedLastSeq?: number,
  ): Promise<number[] | undefined> {
    if (!this.db.db.inTransaction)
      throw new StorageError(`${this.location}: appendInTransaction needs an open transaction`, {
        kind: 'failed',
        location: this.location,
      });
    return this.appendSync(sessionId, rows, now, expectedLastSeq);
  }

  private appendSync(sessionId: string, rows: EntryInsert[], now: number, expectedLastSeq?: number): number[] | undefined {
    const db = this.db;
    const bump =
      expectedLastSeq === undefined
        ? db.allSync<{ last_seq: number }>(
            'UPDATE corvid_sessions SET last_seq = last_seq + ?, updated_at = ? WHERE id = ? RETURNING last_seq',
            [rows.length, now, sessionId],
          )
        : db.allSync<{ last_seq: number }>(
            'UPDATE corvid_sessions SET last_seq = last_seq + ?, updated_at = ? WHERE id = ? AND last_seq = ? RETURNING last_seq',
            [rows.length, now, sessionId, expectedLastSeq],
          );
    if (bump.length === 0) return undefined;
    const first = bump[0].last_seq - rows.length + 1;
    const insert = db.prepare(INSERT_ENTRY);
    const seqs = new Array<number>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      insert.run(sessionId, first + i, r.type, r.agent, r.role, r.run_id, r.message, r.usage_json, r.data, r.search_text, now);
      seqs[i] = first + i;
    }
    if (rows.some((r) => r.search_text !== null)) db.prepare(INDEX_ENTRIES).run(sessionId, first, first + rows.length - 1);
    return seqs;
  }

  async searchMemories(
    scope: { userId: string; agent: string },
    terms: string[],
    filter: MemorySearchFilter,
    limit: number,
  ): Promise<{ row: MemoryRow; score: number }[]> {
    const { where, params } = memoryConditions(scope, filter);
    const rows = await this.db.all<MemoryRow & { rank_value: number }>(
      `SELECT ${MEMORY_COLUMNS}, bm25(corvid_memories_fts) AS rank_value
       FROM corvid_memories_fts JOIN corvid_memories m ON m.id = corvid_memories_fts.rowid
       WHERE corvid_memories_fts MATCH ? AND ${where}
       ORDER BY rank_value, m.updated_at DESC, m.id DESC LIMIT ${limit}`,
      [ftsQuery(terms), ...params],
    );
    return rows.map((row) => ({ row, score: -row.rank_value }));
  }

  async searchMessages(terms: string[], options: MessageSearchOptions, limit: number): Promise<{ row: EntryTextRow; score: number }[]> {
    const where: string[] = [];
    const params: SqlValue[] = [ftsQuery(terms)];
    if (options.sessionId !== undefined) (where.push('e.session_id = ?'), params.push(options.sessionId));
    if (options.agent !== undefined) (where.push('e.agent = ?'), params.push(options.agent));
    if (options.userId !== undefined) (where.push('s.user_id = ?'), params.push(options.userId));
    const rows = await this.db.all<EntryTextRow & { rank_value: number }>(
      `SELECT e.session_id, e.seq, e.agent, e.role, e.search_text, e.created_at, bm25(corvid_entries_fts) AS rank_value
       FROM corvid_entries_fts JOIN corvid_entries e ON e.id = corvid_entries_fts.rowid
       ${options.userId !== undefined ? 'JOIN corvid_sessions s ON s.id = e.session_id' : ''}
       WHERE corvid_entries_fts MATCH ?${where.length ? ` AND ${where.join(' AND ')}` : ''}
       ORDER BY rank_value, e.created_at DESC LIMIT ${limit}`,
      params,
    );
    return rows.map((row) => ({ row, score: -row.rank_value }));
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
