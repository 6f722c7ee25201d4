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
import { toEntry } from '../shared/rows.js';
import { checkEntry, checkId, checkLimit, checkSessionInput, decodeCursor, encodeCursor } from '../shared/validate.js';
import { k, type MemData, type MemEntry, type MemSession } from './data.js';

/** Context shared by the in-memory services. */
export interface MemContext {
  data: MemData;
  now(): number;
  location: string;
  check(): void;
}

function toSession(s: MemSession): Session {
  const out: Session = {
    id: s.id,
    agent: s.agent,
    activeAgent: s.activeAgent,
    metadata: decodeJson(s.metadata) as Record<string, unknown>,
    lastSeq: s.lastSeq,
    createdAt: new Date(s.createdAt),
    updatedAt: new Date(s.updatedAt),
  };
  if (s.userId !== undefined) out.userId = s.userId;
  return out;
}

/** Sessions held in memory. */
export class MemorySessionStore implements SessionStore {
  constructor(private readonly c: MemContext) {}

  private need(id: string): MemSession {
    this.c.check();
    const s = this.c.data.sessions.get(id);
    if (!s) throw unknownSession(id, this.c.location);
    return s;
  }

  async create(input: SessionInput): Promise<Session> {
    this.c.check();
    checkSessionInput(input);
    const id = input.id ?? sortableId('ses');
    if (this.c.data.sessions.has(id)) throw sessionExists(id, this.c.location);
    const now = this.c.now();
    const row: MemSession = {
      id,
      agent: input.agent,
      activeAgent: input.activeAgent ?? input.agent,
      userId: input.userId,
      metadata: encodeJson(input.metadata ?? {}),
      lastSeq: 0,
      createdAt: now,
      updatedAt: now,
      order: this.c.data.next(),
    };
    this.c.data.sessions.set(id, row);
    this.c.data.entries.set(id, []);
    return toSession(row);
  }

  async get(id: string): Promise<Session | undefined> {
    this.c.check();
    const s = this.c.data.sessions.get(id);
    return s ? toSession(s) : undefined;
  }

  async getOrCreate(input: SessionInput & { id: string }): Promise<Session> {
    return (await this.get(input.id)) ?? this.create(input);
  }

  async list(options: SessionListOptions = {}): Promise<SessionPage> {
    this.c.check();
    const limit = checkLimit(options.limit, 50);
    const after = options.cursor ? decodeCursor(options.cursor) : undefined;
    const rows = [...this.c.data.sessions.values()]
      .filter(
        (s) => (options.agent === undefined || s.agent === options.agent) && (options.userId === undefined || s.userId === options.userId),
      )
      .sort((a, b) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0))
      .filter((s) => !after || s.createdAt < after.createdAt || (s.createdAt === after.createdAt && s.id < after.id));
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { sessions: page.map(toSession), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.createdAt, last.id) } : {}) };
  }

  async update(id: string, patch: { metadata?: Record<string, unknown>; activeAgent?: string }): Promise<Session> {
    const s = this.need(id);
    if (patch.activeAgent !== undefined) s.activeAgent = checkId('Session activeAgent', patch.activeAgent);
    if (patch.metadata !== undefined) s.metadata = encodeJson(patch.metadata);
    s.updatedAt = this.c.now();
    return toSession(s);
  }

  async getActiveAgent(id: string): Promise<string | undefined> {
    this.c.check();
    return this.c.data.sessions.get(id)?.activeAgent;
  }

  async setActiveAgent(id: string, agent: string): Promise<void> {
    await this.update(id, { activeAgent: agent });
  }

  async delete(id: string): Promise<boolean> {
    this.c.check();
    const d = this.c.data;
    if (!d.sessions.delete(id)) return false;
    d.entries.delete(id);
    const prefix = k('session', id, '');
    for (const key of d.state.keys()) if (key.startsWith(prefix)) d.state.delete(key);
    for (const key of d.artifacts.keys()) if (key.startsWith(k(id, ''))) d.artifacts.delete(key);
    for (const run of d.runs.values()) {
      if (run.sessionId !== id) continue;
      d.runs.delete(run.runId);
      d.checkpoints.delete(run.runId);
    }
    for (const a of d.approvals.values()) if (a.sessionId === id) d.approvals.delete(a.id);
    return true;
  }

  async append(sessionId: string, entry: SessionEntryInput, options?: AppendOptions): Promise<number> {
    return (await this.appendMany(sessionId, [entry], options))[0];
  }

  async appendMany(sessionId: string, entries: SessionEntryInput[], options: AppendOptions = {}): Promise<number[]> {
    this.c.check();
    return appendEntries(this.c, sessionId, entries, options);
  }

  async entries(sessionId: string, query: EntryQuery = {}): Promise<SessionEntry[]> {
    this.need(sessionId);
    const after = query.afterSeq ?? 0;
    const out: SessionEntry[] = [];
    for (const r of this.c.data.entries.get(sessionId)!) {
      if (r.seq <= after || (query.types && !query.types.includes(r.type))) continue;
      out.push(
        toEntry(sessionId, {
          seq: r.seq,
          type: r.type,
          agent: r.agent,
          role: r.role,
          run_id: r.runId,
          message: r.message,
          usage_json: r.usage,
          data: r.data,
          created_at: r.createdAt,
        }),
      );
      if (query.limit !== undefined && out.length >= query.limit) break;
    }
    return out;
  }

  async messages(sessionId: string, options: { afterSeq?: number } = {}): Promise<Message[]> {
    this.need(sessionId);
    const after = options.afterSeq ?? 0;
    const out: Message[] = [];
    for (const r of this.c.data.entries.get(sessionId)!)
      if (r.seq > after && r.type === 'message') out.push(decodeJson(r.message!) as Message);
    return out;
  }

  async countMessages(sessionId: string): Promise<number> {
    this.need(sessionId);
    let n = 0;
    for (const r of this.c.data.entries.get(sessionId)!) if (r.type === 'message') n++;
    return n;
  }
}

/**
 * Appends entries at once (no await: nothing else runs in between); everything is checked
 * before anything is written. Shared with checkpoints saved with entries.
 */
export function appendEntries(c: MemContext, sessionId: string, entries: SessionEntryInput[], options: AppendOptions = {}): number[] {
  const rows = entries.map((e) => ({ e, type: checkEntry(e) }));
  const s = c.data.sessions.get(sessionId);
  if (!s) throw unknownSession(sessionId, c.location);
  if (options.expectedLastSeq !== undefined && options.expectedLastSeq !== s.lastSeq) {
    throw seqConflict(sessionId, options.expectedLastSeq, s.lastSeq, c.location);
  }
  const list = c.data.entries.get(sessionId)!;
  const now = c.now();
  const seqs: number[] = [];
  for (const { e, type } of rows) {
    const seq = ++s.lastSeq;
    const row: MemEntry = { seq, type, createdAt: now };
    if (e.agent !== undefined) row.agent = e.agent;
    if (e.runId !== undefined) row.runId = e.runId;
    if (e.message !== undefined) {
      row.message = encodeJson(e.message);
      row.role = e.message.role;
      row.text = messageSearchText(e.message);
    }
    if (e.usage !== undefined) row.usage = JSON.stringify(e.usage);
    if (e.data !== undefined) row.data = encodeJson(e.data);
    list.push(row);
    seqs.push(seq);
  }
  if (seqs.length > 0) s.updatedAt = now;
  return seqs;
}
