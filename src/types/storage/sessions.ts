import type { Message } from '../message.js';
import type { Usage } from '../usage.js';

/** A conversation that outlives the process: its entries, state and artifacts hang off its id. */
export interface Session {
  id: string;
  /** The agent the session was created for. */
  agent: string;
  /** The agent currently in charge (changes with handoffs); starts as `agent`. */
  activeAgent: string;
  userId?: string;
  metadata: Record<string, unknown>;
  /** Seq of the last appended entry; 0 for an empty session. */
  lastSeq: number;
  createdAt: Date;
  /** Last append or update. */
  updatedAt: Date;
}

/** What `sessions.create()` takes. */
export interface SessionInput {
  /** Generated (`ses_…`, time-ordered) when absent. At most 191 characters. */
  id?: string;
  agent: string;
  userId?: string;
  /** Defaults to `agent`. */
  activeAgent?: string;
  metadata?: Record<string, unknown>;
}

/** Filters and paging for `sessions.list()`; newest first. */
export interface SessionListOptions {
  agent?: string;
  userId?: string;
  /** Page size, 1–1000. Default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of sessions. */
export interface SessionPage {
  sessions: Session[];
  /** Present when more sessions follow. */
  nextCursor?: string;
}

/**
 * One entry to append. A conversation message has `type: 'message'` (the default) and a
 * `message`; any other type (`handoff`, `run_start`, …) records an event with optional `data`.
 */
export interface SessionEntryInput {
  type?: string;
  message?: Message;
  /** The agent that produced the entry. */
  agent?: string;
  runId?: string;
  usage?: Usage;
  /** JSON payload of non-message entries. */
  data?: unknown;
}

/** A stored entry, exactly as appended, with its place in the session's total order. */
export interface SessionEntry {
  sessionId: string;
  /** 1, 2, 3… per session, gapless, in append order. */
  seq: number;
  type: string;
  agent?: string;
  /** The message's role, for message entries. */
  role?: Message['role'];
  runId?: string;
  message?: Message;
  usage?: Usage;
  data?: unknown;
  createdAt: Date;
}

/** Options for `append` / `appendMany`. */
export interface AppendOptions {
  /**
   * Optimistic concurrency: append only if the session's `lastSeq` is still this value, else
   * fail with a `storage_conflict` StorageError (used to make a resumed run the only writer).
   */
  expectedLastSeq?: number;
}

/** What `entries()` returns: entries after a seq, in order. */
export interface EntryQuery {
  /** Only entries with a greater seq. Default 0 (all). */
  afterSeq?: number;
  /** At most this many. */
  limit?: number;
  /** Only these types. */
  types?: string[];
}

/**
 * Sessions and their entries. Appends are atomic and totally ordered per session, also across
 * connections and processes: each gets the next seq, no seq is skipped, nothing is lost.
 * Operations on an unknown session id fail with a `not_found` StorageError; `get` returns undefined.
 */
export interface SessionStore {
  /** Creates a session; an id that exists already is a `storage_conflict` error. */
  create(input: SessionInput): Promise<Session>;
  /** The session with this id, or undefined. */
  get(id: string): Promise<Session | undefined>;
  /** The session with `input.id`, created first when missing (safe when two processes race). */
  getOrCreate(input: SessionInput & { id: string }): Promise<Session>;
  /** Sessions newest first, filtered by agent and user, a page at a time. */
  list(options?: SessionListOptions): Promise<SessionPage>;
  /** Replaces metadata and/or the active agent. */
  update(id: string, patch: { metadata?: Record<string, unknown>; activeAgent?: string }): Promise<Session>;
  /** The agent currently in charge of the session, or undefined for an unknown session. */
  getActiveAgent(id: string): Promise<string | undefined>;
  /** Records a handoff: the agent now in charge. */
  setActiveAgent(id: string, agent: string): Promise<void>;
  /** Deletes the session with its entries, session-scoped state, artifacts, runs and approvals. */
  delete(id: string): Promise<boolean>;
  /** Appends one entry atomically; resolves with its seq. */
  append(sessionId: string, entry: SessionEntryInput, options?: AppendOptions): Promise<number>;
  /** Appends entries in one transaction, consecutively; resolves with their seqs. */
  appendMany(sessionId: string, entries: SessionEntryInput[], options?: AppendOptions): Promise<number[]>;
  /** Entries in seq order. */
  entries(sessionId: string, query?: EntryQuery): Promise<SessionEntry[]>;
  /** The conversation: the messages of `message` entries, in order. */
  messages(sessionId: string, options?: { afterSeq?: number }): Promise<Message[]>;
  /** How many `message` entries the session has (without loading them). */
  countMessages(sessionId: string): Promise<number>;
}
