import { HttpError } from '../../http/http-error.js';
import { newId } from '../../http/new-id.js';
import { type Message, messageText } from '../../types/message.js';
import { RunState } from '../../types/run-state.js';
import { emptyUsage, type Usage } from '../../types/usage.js';

/** One chat session of the HTTP API: the history of a conversation with one agent. */
export interface ChatSession {
  id: string;
  /** The agent the session was started with. */
  agent: string;
  userId?: string;
  /** A title given with `PATCH /api/v1/sessions/{id}`. */
  title?: string;
  createdAt: string;
  updatedAt: string;
  /** The history (appended to by each successful turn). */
  messages: Message[];
  /** Per message of `messages` (stored sessions): the run that wrote it, and whether it is the partial answer of a stopped run. */
  messageRuns?: { runId?: string; interrupted?: boolean }[];
  /** Session state across turns. */
  state: RunState;
  /** The agent that takes the next turn after a handoff. */
  activeAgent?: string;
  usage: Usage;
}

/** What session listings show. */
export interface ChatSessionSummary {
  id: string;
  agent: string;
  userId?: string;
  title?: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** The agent that takes the next turn (the session's agent unless a handoff changed it). */
  activeAgent?: string;
  /** The start of its first user message, to recognise it by. */
  preview?: string;
}

/** The start of a session's first user message (120 characters at most, on one line), if it has one. */
export function previewOf(messages: readonly Message[]): string | undefined {
  const first = messages.find((m) => m.role === 'user');
  const text = first ? messageText(first).replace(/\s+/g, ' ').trim() : '';
  if (text === '') return undefined;
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Filters and paging of `ChatSessions.list`. */
export interface ListSessionsQuery {
  agent?: string;
  userId?: string;
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
  /** Only sessions whose messages, id or title contain these words (case-insensitive; no paging then). */
  q?: string;
}

/** What the sessions endpoints read: get, list, delete. */
export interface SessionDirectory {
  get(id: string): Promise<ChatSession | undefined>;
  list(query: ListSessionsQuery): Promise<{ sessions: ChatSessionSummary[]; nextCursor?: string }>;
  /** False when there was no such session. */
  delete(id: string): Promise<boolean>;
  /** Sets (or, with `''`, removes) the session's title; false when there is no such session. */
  rename(id: string, title: string): Promise<boolean>;
}

/**
 * Where the chat API keeps sessions when the runtime has no store: turns run as conversations
 * on these sessions (with a store, turns are session runs and `StoreChatSessions` reads them).
 * Swapping the in-memory backend means implementing this interface.
 */
export interface ChatSessions extends SessionDirectory {
  /** Creates a session (with `init.id` when given; the caller checks it is free). */
  create(init: { agent: string; userId?: string; id?: string }): Promise<ChatSession>;
  /** Called after each turn with the updated session. */
  save(session: ChatSession): Promise<void>;
}

/** A summary of a session. */
export function summarize(s: ChatSession): ChatSessionSummary {
  const out: ChatSessionSummary = {
    id: s.id,
    agent: s.agent,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    messageCount: s.messages.length,
    activeAgent: s.activeAgent ?? s.agent,
  };
  if (s.userId !== undefined) out.userId = s.userId;
  if (s.title !== undefined) out.title = s.title;
  const preview = previewOf(s.messages);
  if (preview !== undefined) out.preview = preview;
  return out;
}

/** Whether a session matches a search: every word of `q` is in its id, title or a message. */
export function sessionMatches(s: { id: string; title?: string; messages: readonly Message[] }, q: string): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const hay = [s.id, s.title ?? '', ...s.messages.map(messageText)].join('\n').toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** A session of `MemoryChatSessions`: times kept as numbers, shown as ISO strings. */
class MemorySession implements ChatSession {
  messages: Message[] = [];
  state = new RunState();
  usage: Usage = emptyUsage();
  userId?: string;
  title?: string;
  activeAgent?: string;
  private readonly created: number;
  /** @internal */
  updated: number;

  constructor(
    readonly id: string,
    readonly agent: string,
    /** Creation order (listing cursors). */
    readonly seq: number,
  ) {
    this.created = this.updated = Date.now();
  }

  get createdAt(): string {
    return new Date(this.created).toISOString();
  }

  get updatedAt(): string {
    return new Date(this.updated).toISOString();
  }
}

/**
 * Sessions in process memory (lost on restart), newest first in listings. At most `maxSessions`
 * (default 10,000) are kept; creating one more forgets the oldest.
 */
export class MemoryChatSessions implements ChatSessions {
  private readonly sessions = new Map<string, MemorySession>();
  private seq = 0;
  /** Ids oldest first, from `head` on (eviction order; `Map.keys().next()` would walk the holes deleted entries leave). */
  private fifo: string[] = [];
  private head = 0;
  private readonly maxSessions: number;

  constructor(options: { maxSessions?: number } = {}) {
    this.maxSessions = options.maxSessions ?? 10_000;
  }

  async get(id: string): Promise<ChatSession | undefined> {
    return this.sessions.get(id);
  }

  async create(init: { agent: string; userId?: string; id?: string }): Promise<ChatSession> {
    const session = new MemorySession(init.id ?? newId(), init.agent, ++this.seq);
    if (init.userId !== undefined) session.userId = init.userId;
    this.sessions.set(session.id, session);
    this.fifo.push(session.id);
    if (this.sessions.size > this.maxSessions) this.evictOldest();
    return session;
  }

  private evictOldest(): void {
    while (this.head < this.fifo.length && !this.sessions.delete(this.fifo[this.head++]));
    if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo = this.fifo.slice(this.head);
      this.head = 0;
    }
  }

  async save(session: ChatSession): Promise<void> {
    if (this.sessions.get(session.id) === session && session instanceof MemorySession) session.updated = Date.now();
  }

  async list(query: ListSessionsQuery): Promise<{ sessions: ChatSessionSummary[]; nextCursor?: string }> {
    if (query.cursor !== undefined && !/^\d{1,15}$/.test(query.cursor))
      throw new HttpError(400, 'invalid_request', 'Invalid query: "cursor" is not a cursor this server returned');
    const before = query.cursor ? Number(query.cursor) : Infinity;
    const out: ChatSessionSummary[] = [];
    const all = [...this.sessions.values()].reverse();
    let last: number | undefined;
    let more = false;
    for (const s of all) {
      const n = s.seq;
      if (n >= before) continue;
      if (query.agent !== undefined && s.agent !== query.agent) continue;
      if (query.userId !== undefined && s.userId !== query.userId) continue;
      if (query.q !== undefined && !sessionMatches(s, query.q)) continue;
      if (out.length === query.limit) {
        more = true;
        break;
      }
      out.push(summarize(s));
      last = n;
    }
    return more && last !== undefined ? { sessions: out, nextCursor: String(last) } : { sessions: out };
  }

  async delete(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  async rename(id: string, title: string): Promise<boolean> {
    const s = this.sessions.get(id);
    if (s === undefined) return false;
    if (title === '') delete s.title;
    else s.title = title;
    s.updated = Date.now();
    return true;
  }
}
