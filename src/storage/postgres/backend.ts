import type { Pool } from 'pg';

import type { MessageSearchOptions } from '../../types/storage/memories.js';
import type { MemoryRow } from '../shared/rows.js';
import { AppendBatcher, type AppendRequest, type AppendResult } from '../sql/append-batcher.js';
import type { EntryInsert, EntryTextRow, MemorySearchFilter, SqlBackend, SqlClient, SqlValue } from '../sql/sql-client.js';
import { MEMORY_COLUMNS, memoryConditions } from '../sql/sql-memories.js';
import type { PgClient } from './driver.js';

const ENTRY_FIELDS = ['type', 'agent', 'role', 'run_id', 'message', 'usage_json', 'data', 'search_text'] as const;

/**
 * The append is one statement: the UPDATE takes the session row's lock and bumps `last_seq`,
 * the INSERT writes the entries with the seqs it reserved, and both commit together. Concurrent
 * appends to a session queue on the row lock, so seqs are gapless and totally ordered.
 */
const append = (expected: boolean) => `WITH s AS (
    UPDATE corvid_sessions SET last_seq = last_seq + ?, updated_at = ? WHERE id = ?${expected ? ' AND last_seq = ?' : ''} RETURNING last_seq
  )
  INSERT INTO corvid_entries (session_id, seq, ${ENTRY_FIELDS.join(', ')}, created_at)
  SELECT ?, s.last_seq - ? + e.ord, ${ENTRY_FIELDS.map((f) => `e.${f}`).join(', ')}, ?
  FROM s, unnest(${ENTRY_FIELDS.map(() => '?::text[]').join(', ')}) WITH ORDINALITY AS e(${ENTRY_FIELDS.join(', ')}, ord)
  RETURNING seq`;
const APPEND = append(false);
const APPEND_EXPECTED = append(true);

/** Several requests in one transaction: lock their sessions in id order, then one UPDATE and one INSERT for all. */
const LOCK_SESSIONS = 'SELECT id, last_seq FROM corvid_sessions WHERE id = ANY(?::text[]) ORDER BY id FOR UPDATE';
const WRITE_BATCH = `WITH bump AS (
    UPDATE corvid_sessions c SET last_seq = u.last_seq, updated_at = u.updated_at
    FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS u(id, last_seq, updated_at) WHERE c.id = u.id
  )
  INSERT INTO corvid_entries (session_id, seq, ${ENTRY_FIELDS.join(', ')}, created_at)
  SELECT * FROM unnest(?::text[], ?::bigint[], ${ENTRY_FIELDS.map(() => '?::text[]').join(', ')}, ?::bigint[])`;

/**
 * Several requests without expectations in one statement: lock their sessions in id order (so
 * concurrent batches cannot deadlock), bump each session by its entry count, insert every entry
 * at the locked last_seq plus its position `k` within the session's part of the batch.
 */
const APPEND_BATCH = `WITH locked AS MATERIALIZED (
    SELECT id, last_seq FROM corvid_sessions WHERE id = ANY(?::text[]) ORDER BY id FOR UPDATE
  ),
  e AS (
    SELECT * FROM unnest(?::text[], ?::bigint[], ${ENTRY_FIELDS.map(() => '?::text[]').join(', ')}, ?::bigint[])
      AS e(session_id, k, ${ENTRY_FIELDS.join(', ')}, created_at)
  ),
  n AS (SELECT session_id, MAX(k) AS m, MAX(created_at) AS at FROM e GROUP BY session_id),
  bump AS (
    UPDATE corvid_sessions c SET last_seq = l.last_seq + n.m, updated_at = n.at FROM locked l JOIN n ON n.session_id = l.id WHERE c.id = l.id
  )
  INSERT INTO corvid_entries (session_id, seq, ${ENTRY_FIELDS.join(', ')}, created_at)
  SELECT e.session_id, l.last_seq + e.k, ${ENTRY_FIELDS.map((f) => `e.${f}`).join(', ')}, e.created_at FROM e JOIN locked l ON l.id = e.session_id
  RETURNING session_id, seq`;

/** A tsquery matching any of the terms (terms are letters and digits only). */
const tsQuery = (terms: string[]) => terms.map((t) => `'${t}'`).join(' | ');

/** Postgres specifics: ON CONFLICT upserts, row locks, tsvector/ts_rank full text. */
export class PostgresBackend implements SqlBackend {
  readonly name = 'postgres' as const;
  readonly forUpdate = ' FOR UPDATE';
  private readonly batcher: AppendBatcher;

  constructor(
    readonly db: PgClient,
    readonly location: string,
    private readonly pool: Pool,
    poolSize: number,
  ) {
    this.batcher = new AppendBatcher((requests) => this.flush(requests), Math.max(1, Math.min(2, poolSize)));
  }

  upsert(table: string, columns: string[], conflict: string[], update: string[]): string {
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
      ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${update.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`;
  }

  insertIgnore(table: string, columns: string[]): string {
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;
  }

  isUniqueViolation(error: unknown): boolean {
    const e = error as { code?: string; cause?: { code?: string } };
    return (e?.cause?.code ?? e?.code) === '23505';
  }

  /** Appends go through the batcher: concurrent appends share transactions (see AppendBatcher). */
  appendEntries(sessionId: string, rows: EntryInsert[], now: number, expectedLastSeq?: number): Promise<number[] | undefined> {
    return this.batcher.submit({ sessionId, rows, now, expectedLastSeq });
  }

  appendInTransaction(
    tx: SqlClient,
    sessionId: string,
    rows: EntryInsert[],
    now: number,
    expectedLastSeq?: number,
  ): Promise<number[] | undefined> {
    return this.appendOne({ sessionId, rows, now, expectedLastSeq }, tx as PgClient);
  }

  private async flush(requests: AppendRequest[]): Promise<AppendResult[]> {
    if (requests.length === 1) return [await this.appendOne(requests[0], this.db)];
    if (requests.every((r) => r.expectedLastSeq === undefined)) return this.appendBatch(requests);
    return this.db.transaction(async (tx) => {
      const pg = tx as PgClient;
      const ids = [...new Set(requests.map((r) => r.sessionId))];
      const locked = (await pg.query(LOCK_SESSIONS, [ids])).rows as { id: string; last_seq: number }[];
      const last = new Map(locked.map((r) => [r.id, Number(r.last_seq)]));
      const touched = new Map<string, number>();
      const columns: unknown[][] = Array.from({ length: ENTRY_FIELDS.length + 3 }, () => []);
      const results = requests.map((r): AppendResult => {
        const current = last.get(r.sessionId);
        if (current === undefined || (r.expectedLastSeq !== undefined && r.expectedLastSeq !== current)) return undefined;
        const seqs = r.rows.map((row, i) => {
          columns[0].push(r.sessionId);
          columns[1].push(current + 1 + i);
          ENTRY_FIELDS.forEach((f, j) => columns[2 + j].push(row[f]));
          columns[columns.length - 1].push(r.now);
          return current + 1 + i;
        });
        last.set(r.sessionId, current + r.rows.length);
        touched.set(r.sessionId, Math.max(touched.get(r.sessionId) ?? 0, r.now));
        return seqs;
      });
      if (touched.size > 0) {
        const sessions = [...touched.keys()];
        await pg.query(WRITE_BATCH, [sessions, sessions.map((id) => last.get(id)), sessions.map((id) => touched.get(id)), ...columns]);
      }
      return results;
    });
  }

  /** Requests without expectations: one statement (one round trip, one commit). */
  private async appendBatch(requests: AppendRequest[]): Promise<AppendResult[]> {
    const columns: unknown[][] = Array.from({ length: ENTRY_FIELDS.length + 3 }, () => []);
    const counts = new Map<string, number>();
    const positions = requests.map((r) => {
      const before = counts.get(r.sessionId) ?? 0;
      r.rows.forEach((row, i) => {
        columns[0].push(r.sessionId);
        columns[1].push(before + 1 + i);
        ENTRY_FIELDS.forEach((f, j) => columns[2 + j].push(row[f]));
        columns[columns.length - 1].push(r.now);
      });
      counts.set(r.sessionId, before + r.rows.length);
      return before;
    });
    const result = await this.db.query(APPEND_BATCH, [[...counts.keys()], ...columns], 'corvid_append_batch');
    const base = new Map<string, number>();
    for (const row of result.rows as { session_id: string; seq: number }[]) {
      const seq = Number(row.seq);
      base.set(row.session_id, Math.min(base.get(row.session_id) ?? Infinity, seq - 1));
    }
    return requests.map((r, i) => {
      const b = base.get(r.sessionId);
      return b === undefined ? undefined : r.rows.map((_, j) => b + positions[i] + 1 + j);
    });
  }

  /** One request alone: a single statement (on `client`: the pool, or a transaction's connection). */
  private async appendOne(r: AppendRequest, client: PgClient): Promise<AppendResult> {
    const params: unknown[] = [r.rows.length, r.now, r.sessionId];
    if (r.expectedLastSeq !== undefined) params.push(r.expectedLastSeq);
    params.push(r.sessionId, r.rows.length, r.now);
    for (const f of ENTRY_FIELDS) params.push(r.rows.map((row) => row[f]));
    const expected = r.expectedLastSeq !== undefined;
    const result = await client.query(expected ? APPEND_EXPECTED : APPEND, params, expected ? 'corvid_append_expected' : 'corvid_append');
    if (result.rows.length === 0) return undefined;
    return (result.rows as { seq: number }[]).map((row) => Number(row.seq)).sort((a, b) => a - b);
  }

  async searchMemories(
    scope: { userId: string; agent: string },
    terms: string[],
    filter: MemorySearchFilter,
    limit: number,
  ): Promise<{ row: MemoryRow; score: number }[]> {
    const { where, params } = memoryConditions(scope, filter);
    const rows = await this.db.all<MemoryRow & { score: number }>(
      `SELECT ${MEMORY_COLUMNS}, ts_rank(m.search_tsv, q) AS score
       FROM corvid_memories m, to_tsquery('simple', ?) q
       WHERE m.search_tsv @@ q AND ${where}
       ORDER BY score DESC, m.updated_at DESC, m.id DESC LIMIT ${limit}`,
      [tsQuery(terms), ...params],
    );
    return rows.map((row) => ({ row, score: Number(row.score) }));
  }

  async searchMessages(terms: string[], options: MessageSearchOptions, limit: number): Promise<{ row: EntryTextRow; score: number }[]> {
    const where: string[] = [];
    const params: SqlValue[] = [tsQuery(terms)];
    if (options.sessionId !== undefined) (where.push('e.session_id = ?'), params.push(options.sessionId));
    if (options.agent !== undefined) (where.push('e.agent = ?'), params.push(options.agent));
    if (options.userId !== undefined) (where.push('s.user_id = ?'), params.push(options.userId));
    const rows = await this.db.all<EntryTextRow & { score: number }>(
      `SELECT e.session_id, e.seq, e.agent, e.role, e.search_text, e.created_at, ts_rank(e.search_tsv, q) AS score
       FROM corvid_entries e ${options.userId !== undefined ? 'JOIN corvid_sessions s ON s.id = e.session_id' : ''}, to_tsquery('simple', ?) q
       WHERE e.search_text IS NOT NULL AND e.search_tsv @@ q${where.length ? ` AND ${where.join(' AND ')}` : ''}
       ORDER BY score DESC, e.created_at DESC LIMIT ${limit}`,
      params,
    );
    return rows.map((row) => ({ row, score: Number(row.score) }));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
