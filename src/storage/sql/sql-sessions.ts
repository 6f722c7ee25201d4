import type { Message } from '../../types/message.js';
import type {
  AppendOptions,
  EntryQuery,
  Session,
  SessionEntry,
  SessionEntryInput,
  SessionInput,
  SessionListOptions,
  SessionPage,
  SessionStore,
} from '../../types/storage/sessions.js';
import { messageSearchText } from '../shared/entry-text.js';
import { seqConflict, sessionExists, unknownSession } from '../shared/errors.js';
import { sortableId } from '../shared/ids.js';
import { decodeJson, encodeJson } from '../shared/json-codec.js';
import { type EntryRow, type SessionRow, toEntry, toSession } from '../shared/rows.js';
import { checkEntry, checkId, checkLimit, checkSessionInput, decodeCursor, encodeCursor } from '../shared/validate.js';
import type { EntryInsert, SqlBackend, SqlValue } from './sql-client.js';

/** Shared by the SQL services. */
export interface SqlContext {
  backend: SqlBackend;
  now(): number;
  check(): void;
}

const SESSION_COLUMNS = 'id, agent, active_agent, user_id, metadata, last_seq, created_at, updated_at';
const ENTRY_COLUMNS = 'seq, type, agent, role, run_id, message, usage_json, data, created_at';

/** Turns an entry into column values. */
export function entryInsert(entry: SessionEntryInput, type: string): EntryInsert {
  return {
    type,
    agent: entry.agent ?? null,
    role: entry.message?.role ?? null,
    run_id: entry.runId ?? null,
    message: entry.message === undefined ? null : encodeJson(entry.message),
    usage_json: entry.usage === undefined ? null : JSON.stringify(entry.usage),
    data: entry.data === undefined ? null : encodeJson(entry.data),
    search_text: messageSearchText(entry.message) ?? null,
  };
}

/** Sessions and entries on a SQL backend. */
export class SqlSessionStore implements SessionStore {
  constructor(private readonly c: SqlContext) {}

  private get b(): SqlBackend {
    this.c.check();
    return this.c.backend;
  }

  async create(input: SessionInput): Promise<Session> {
    checkSessionInput(input);
    const b = this.b;
    const id = input.id ?? sortableId('ses');
    const now = this.c.now();
    const row: SessionRow = {
      id,
      agent: input.agent,
      active_agent: input.activeAgent ?? input.agent,
      user_id: input.userId ?? null,
      metadata: encodeJson(input.metadata ?? {}),
      last_seq: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await b.db.run(`INSERT INTO corvid_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
        row.id,
        row.agent,
        row.active_agent,
        row.user_id ?? null,
        row.metadata,
        0,
        now,
        now,
      ]);
    } catch (err) {
      if (b.isUniqueViolation(err)) throw sessionExists(id, b.location);
      throw err;
    }
    return toSession(row);
  }

  async get(id: string): Promise<Session | undefined> {
    const rows = await this.b.db.all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM corvid_sessions WHERE id = ?`, [id]);
    return rows[0] ? toSession(rows[0]) : undefined;
  }

  async getOrCreate(input: SessionInput & { id: string }): Promise<Session> {
    const found = await this.get(input.id);
    if (found) return found;
    checkSessionInput(input);
    const b = this.b;
    const now = this.c.now();
    await b.db.run(b.insertIgnore('corvid_sessions', SESSION_COLUMNS.split(', '), ['id']), [
      input.id,
      input.agent,
      input.activeAgent ?? input.agent,
      input.userId ?? null,
      encodeJson(input.metadata ?? {}),
      0,
      now,
      now,
    ]);
    return (await this.get(input.id))!;
  }

  async list(options: SessionListOptions = {}): Promise<SessionPage> {
    const limit = checkLimit(options.limit, 50);
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (options.agent !== undefined) (where.push('agent = ?'), params.push(options.agent));
    if (options.userId !== undefined) (where.push('user_id = ?'), params.push(options.userId));
    if (options.cursor) {
      const c = decodeCursor(options.cursor);
      where.push('(created_at < ? OR (created_at = ? AND id < ?))');
      params.push(c.createdAt, c.createdAt, c.id);
    }
    const sql = `SELECT ${SESSION_COLUMNS} FROM corvid_sessions${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`;
    const rows = await this.b.db.all<SessionRow>(sql, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      sessions: page.map(toSession),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor(Number(last.created_at), last.id) } : {}),
    };
  }

  async update(id: string, patch: { metadata?: Record<string, unknown>; activeAgent?: string }): Promise<Session> {
    if (patch.activeAgent !== undefined) checkId('Session activeAgent', patch.activeAgent);
    const b = this.b;
    const changed = await b.db.run(
      'UPDATE corvid_sessions SET active_agent = COALESCE(?, active_agent), metadata = COALESCE(?, metadata), updated_at = ? WHERE id = ?',
      [patch.activeAgent ?? null, patch.metadata === undefined ? null : encodeJson(patch.metadata), this.c.now(), id],
    );
    const session = changed > 0 ? await this.get(id) : undefined;
    if (!session) throw unknownSession(id, b.location);
    return session;
  }

  async getActiveAgent(id: string): Promise<string | undefined> {
    const rows = await this.b.db.all<{ active_agent: string }>('SELECT active_agent FROM corvid_sessions WHERE id = ?', [id]);
    return rows[0]?.active_agent;
  }

  async setActiveAgent(id: string, agent: string): Promise<void> {
    await this.update(id, { activeAgent: agent });
  }

  async delete(id: string): Promise<boolean> {
    const b = this.b;
    return b.db.transaction(async (tx) => {
      if ((await tx.run('DELETE FROM corvid_sessions WHERE id = ?', [id])) === 0) return false;
      await tx.run('DELETE FROM corvid_entries WHERE session_id = ?', [id]);
      await tx.run("DELETE FROM corvid_state WHERE scope = 'session' AND owner = ?", [id]);
      await tx.run('DELETE FROM corvid_artifacts WHERE session_id = ?', [id]);
      await tx.run('DELETE FROM corvid_approvals WHERE session_id = ?', [id]);
      await tx.run('DELETE FROM corvid_checkpoints WHERE run_id IN (SELECT run_id FROM corvid_runs WHERE session_id = ?)', [id]);
      await tx.run('DELETE FROM corvid_runs WHERE session_id = ?', [id]);
      return true;
    });
  }

  async append(sessionId: string, entry: SessionEntryInput, options?: AppendOptions): Promise<number> {
    return (await this.appendMany(sessionId, [entry], options))[0];
  }

  async appendMany(sessionId: string, entries: SessionEntryInput[], options: AppendOptions = {}): Promise<number[]> {
    const rows = entries.map((e) => entryInsert(e, checkEntry(e)));
    const b = this.b;
    if (rows.length === 0) {
      const s = await this.get(sessionId);
      if (!s) throw unknownSession(sessionId, b.location);
      if (options.expectedLastSeq !== undefined && options.expectedLastSeq !== s.lastSeq)
        throw seqConflict(sessionId, options.expectedLastSeq, s.lastSeq, b.location);
      return [];
    }
    const seqs = await b.appendEntries(sessionId, rows, this.c.now(), options.expectedLastSeq);
    if (seqs) return seqs;
    const s = await this.get(sessionId);
    if (!s) throw unknownSession(sessionId, b.location);
    throw seqConflict(sessionId, options.expectedLastSeq ?? s.lastSeq, s.lastSeq, b.location);
  }

  async entries(sessionId: string, query: EntryQuery = {}): Promise<SessionEntry[]> {
    const b = this.b;
    const params: SqlValue[] = [sessionId, query.afterSeq ?? 0];
    let sql = `SELECT ${ENTRY_COLUMNS} FROM corvid_entries WHERE session_id = ? AND seq > ?`;
    if (query.types && query.types.length > 0) {
      sql += ` AND type IN (${query.types.map(() => '?').join(', ')})`;
      params.push(...query.types);
    }
    sql += ' ORDER BY seq';
    if (query.limit !== undefined) sql += ` LIMIT ${checkLimit(query.limit, 100, 1_000_000)}`;
    const rows = await b.db.all<EntryRow>(sql, params);
    if (rows.length === 0 && !(await this.get(sessionId))) throw unknownSession(sessionId, b.location);
    const out = new Array<SessionEntry>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = toEntry(sessionId, rows[i]);
    return out;
  }

  async messages(sessionId: string, options: { afterSeq?: number } = {}): Promise<Message[]> {
    const b = this.b;
    const texts = await b.db.column<string>(
      "SELECT message FROM corvid_entries WHERE session_id = ? AND seq > ? AND type = 'message' ORDER BY seq",
      [sessionId, options.afterSeq ?? 0],
    );
    if (texts.length === 0 && !(await this.get(sessionId))) throw unknownSession(sessionId, b.location);
    const out = new Array<Message>(texts.length);
    for (let i = 0; i < texts.length; i++) out[i] = decodeJson(texts[i]) as Message;
    return out;
  }

  async countMessages(sessionId: string): Promise<number> {
    const b = this.b;
    const [n] = await b.db.column<number | string>("SELECT COUNT(*) FROM corvid_entries WHERE session_id = ? AND type = 'message'", [
      sessionId,
    ]);
    const count = Number(n ?? 0);
    if (count === 0 && !(await this.get(sessionId))) throw unknownSession(sessionId, b.location);
    return count;
  }
}
