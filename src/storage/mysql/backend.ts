import type { Pool } from 'mysql2/promise';

import type { MessageSearchOptions } from '../../types/storage/memories.js';
import type { MemoryRow } from '../shared/rows.js';
import { bm25Scores, escapeLike } from '../shared/text-search.js';
import { AppendBatcher, type AppendRequest, type AppendResult } from '../sql/append-batcher.js';
import type { EntryInsert, EntryTextRow, MemorySearchFilter, SqlBackend, SqlClient, SqlValue } from '../sql/sql-client.js';
import { MEMORY_COLUMNS, memoryConditions } from '../sql/sql-memories.js';
import type { MysqlClient } from './driver.js';

/** InnoDB's default full-text stop words: a query made only of these finds nothing in FULLTEXT. */
const STOPWORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(
    ' ',
  ),
);

/** Rows fetched by the LIKE fallback before ranking them in process. */
const FALLBACK_CANDIDATES = 1000;
const INSERT_CHUNK = 500;

const ENTRY_COLUMNS = 'session_id, seq, type, agent, role, run_id, message, usage_json, data, search_text, created_at';

/**
 * MySQL / MariaDB specifics: ON DUPLICATE KEY upserts, SELECT … FOR UPDATE on the session row for
 * appends, FULLTEXT in natural language mode. Words shorter than `innodb_ft_min_token_size` (3)
 * and InnoDB stop words are not in a FULLTEXT index, so a query made only of such words (or one
 * FULLTEXT finds nothing for) falls back to LIKE, ranked in process with BM25.
 */
export class MysqlBackend implements SqlBackend {
  readonly name = 'mysql' as const;
  readonly forUpdate = ' FOR UPDATE';
  private readonly batcher: AppendBatcher;

  constructor(
    readonly db: MysqlClient,
    readonly location: string,
    private readonly pool: Pool,
    private readonly minTokenSize: number,
    poolSize: number,
  ) {
    this.batcher = new AppendBatcher((requests) => this.flush(requests), Math.max(1, Math.min(2, poolSize)));
  }

  upsert(table: string, columns: string[], _conflict: string[], update: string[]): string {
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
      ON DUPLICATE KEY UPDATE ${update.map((c) => `${c} = VALUES(${c})`).join(', ')}`;
  }

  insertIgnore(table: string, columns: string[]): string {
    return `INSERT IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  }

  isUniqueViolation(error: unknown): boolean {
    const e = error as { code?: string; cause?: { code?: string } };
    return (e?.cause?.code ?? e?.code) === 'ER_DUP_ENTRY';
  }

  /** Appends go through the batcher: concurrent appends share transactions (see AppendBatcher). */
  appendEntries(sessionId: string, rows: EntryInsert[], now: number, expectedLastSeq?: number): Promise<number[] | undefined> {
    return this.batcher.submit({ sessionId, rows, now, expectedLastSeq });
  }

  async appendInTransaction(
    tx: SqlClient,
    sessionId: string,
    rows: EntryInsert[],
    now: number,
    expectedLastSeq?: number,
  ): Promise<number[] | undefined> {
    return (await this.appendIn(tx, [{ sessionId, rows, now, expectedLastSeq }]))[0];
  }

  /** One transaction: lock the sessions (in id order, so concurrent flushes cannot deadlock), bump them, insert the entries. */
  private flush(requests: AppendRequest[]): Promise<AppendResult[]> {
    return this.db.transaction((tx) => this.appendIn(tx, requests));
  }

  private async appendIn(tx: SqlClient, requests: AppendRequest[]): Promise<AppendResult[]> {
    const ids = [...new Set(requests.map((r) => r.sessionId))];
    const locked = await tx.all<{ id: string; last_seq: number }>(
      `SELECT id, last_seq FROM corvid_sessions WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id FOR UPDATE`,
      ids,
    );
    const last = new Map(locked.map((r) => [r.id, Number(r.last_seq)]));
    const touched = new Map<string, number>();
    const values: SqlValue[][] = [];
    const results = requests.map((r): AppendResult => {
      const current = last.get(r.sessionId);
      if (current === undefined || (r.expectedLastSeq !== undefined && r.expectedLastSeq !== current)) return undefined;
      const seqs = r.rows.map((row, i) => {
        values.push([
          r.sessionId,
          current + 1 + i,
          row.type,
          row.agent,
          row.role,
          row.run_id,
          row.message,
          row.usage_json,
          row.data,
          row.search_text,
          r.now,
        ]);
        return current + 1 + i;
      });
      last.set(r.sessionId, current + r.rows.length);
      touched.set(r.sessionId, Math.max(touched.get(r.sessionId) ?? 0, r.now));
      return seqs;
    });
    if (touched.size > 0) {
      const ids = [...touched.keys()];
      const cases = ids.map(() => 'WHEN ? THEN ?').join(' ');
      await tx.run(
        `UPDATE corvid_sessions SET last_seq = CASE id ${cases} END, updated_at = CASE id ${cases} END WHERE id IN (${ids.map(() => '?').join(', ')})`,
        [...ids.flatMap((id) => [id, last.get(id)!]), ...ids.flatMap((id) => [id, touched.get(id)!]), ...ids],
      );
    }
    for (let start = 0; start < values.length; start += INSERT_CHUNK) {
      const chunk = values.slice(start, start + INSERT_CHUNK);
      await tx.run(
        `INSERT INTO corvid_entries (${ENTRY_COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
    return results;
  }

  /** The terms a FULLTEXT index holds; empty when the LIKE fallback must answer. */
  private indexable(terms: string[]): string[] {
    return terms.filter((t) => t.length >= this.minTokenSize && !STOPWORDS.has(t));
  }

  private likeAny(column: string, terms: string[]): { sql: string; params: string[] } {
    return { sql: `(${terms.map(() => `${column} LIKE ? ESCAPE '!'`).join(' OR ')})`, params: terms.map((t) => `%${escapeLike(t)}%`) };
  }

  private rank<R extends { search_text?: string }>(
    rows: R[],
    terms: string[],
    text: (r: R) => string,
    limit: number,
  ): { row: R; score: number }[] {
    const scores = bm25Scores(rows.map(text), terms, { prefix: true });
    return rows
      .map((row, i) => ({ row, score: scores[i] }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  async searchMemories(
    scope: { userId: string; agent: string },
    terms: string[],
    filter: MemorySearchFilter,
    limit: number,
  ): Promise<{ row: MemoryRow; score: number }[]> {
    const { where, params } = memoryConditions(scope, filter);
    const words = this.indexable(terms);
    if (words.length > 0) {
      const query = words.join(' ');
      const rows = await this.db.all<MemoryRow & { score: number }>(
        `SELECT ${MEMORY_COLUMNS}, MATCH (m.search_text) AGAINST (? IN NATURAL LANGUAGE MODE) AS score
         FROM corvid_memories m WHERE ${where} AND MATCH (m.search_text) AGAINST (? IN NATURAL LANGUAGE MODE)
         ORDER BY score DESC, m.updated_at DESC, m.id DESC LIMIT ${limit}`,
        [query, ...params, query],
      );
      if (rows.length > 0) return rows.map((row) => ({ row, score: Number(row.score) }));
    }
    const like = this.likeAny('m.search_text', terms);
    const rows = await this.db.all<MemoryRow & { search_text: string }>(
      `SELECT ${MEMORY_COLUMNS}, m.search_text FROM corvid_memories m WHERE ${where} AND ${like.sql}
       ORDER BY m.updated_at DESC, m.id DESC LIMIT ${FALLBACK_CANDIDATES}`,
      [...params, ...like.params],
    );
    return this.rank(rows, terms, (r) => r.search_text, limit);
  }

  async searchMessages(terms: string[], options: MessageSearchOptions, limit: number): Promise<{ row: EntryTextRow; score: number }[]> {
    const where: string[] = ['e.search_text IS NOT NULL'];
    const params: SqlValue[] = [];
    if (options.sessionId !== undefined) (where.push('e.session_id = ?'), params.push(options.sessionId));
    if (options.agent !== undefined) (where.push('e.agent = ?'), params.push(options.agent));
    if (options.userId !== undefined) (where.push('s.user_id = ?'), params.push(options.userId));
    const from = `corvid_entries e${options.userId !== undefined ? ' JOIN corvid_sessions s ON s.id = e.session_id' : ''}`;
    const columns = 'e.session_id, e.seq, e.agent, e.role, e.search_text, e.created_at';
    const words = this.indexable(terms);
    if (words.length > 0) {
      const query = words.join(' ');
      const rows = await this.db.all<EntryTextRow & { score: number }>(
        `SELECT ${columns}, MATCH (e.search_text) AGAINST (? IN NATURAL LANGUAGE MODE) AS score
         FROM ${from} WHERE ${where.join(' AND ')} AND MATCH (e.search_text) AGAINST (? IN NATURAL LANGUAGE MODE)
         ORDER BY score DESC, e.created_at DESC LIMIT ${limit}`,
        [query, ...params, query],
      );
      if (rows.length > 0) return rows.map((row) => ({ row, score: Number(row.score) }));
    }
    const like = this.likeAny('e.search_text', terms);
    const rows = await this.db.all<EntryTextRow>(
      `SELECT ${columns} FROM ${from} WHERE ${where.join(' AND ')} AND ${like.sql} ORDER BY e.created_at DESC LIMIT ${FALLBACK_CANDIDATES}`,
      [...params, ...like.params],
    );
    return this.rank(rows, terms, (r) => r.search_text, limit);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
