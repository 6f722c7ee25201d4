import { RunState } from '../../types/run-state.js';
import type { Session } from '../../types/storage/sessions.js';
import type { Store } from '../../types/storage/store.js';
import { addUsage, emptyUsage } from '../../types/usage.js';
import { type ChatSession, type ChatSessionSummary, type ListSessionsQuery, previewOf, type SessionDirectory } from './chat-sessions.js';

/**
 * Chat sessions as the runtime's store (`storage:`) holds them, for the sessions endpoints. The
 * turns themselves are session runs (`agent.run(message, { session })`), which append every
 * message with its agent, run id and usage, keep session state and record the active agent; this
 * class only reads and deletes. Sessions survive restarts and are shared by every server on the
 * same database.
 */
export class StoreChatSessions implements SessionDirectory {
  constructor(private readonly store: () => Promise<Store>) {}

  async get(id: string): Promise<ChatSession | undefined> {
    const store = await this.store();
    const s = await store.sessions.get(id);
    if (s === undefined) return undefined;
    const entries = await store.sessions.entries(id);
    const usage = emptyUsage();
    const messages = [];
    const messageRuns: { runId?: string; interrupted?: boolean }[] = [];
    for (const e of entries) {
      if (e.message !== undefined) {
        messages.push(e.message);
        const interrupted = (e.data as { interrupted?: unknown } | undefined)?.interrupted === true;
        messageRuns.push({ ...(e.runId !== undefined ? { runId: e.runId } : {}), ...(interrupted ? { interrupted } : {}) });
      }
      if (e.usage !== undefined) addUsage(usage, e.usage);
    }
    const state = new RunState();
    for (const e of await store.state.list({ session: id })) state.session.set(e.key, e.value);
    const chat: ChatSession = {
      id: s.id,
      agent: s.agent,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      messages,
      messageRuns,
      state,
      usage,
      activeAgent: s.activeAgent,
    };
    if (s.userId !== undefined) chat.userId = s.userId;
    const title = titleOf(s);
    if (title !== undefined) chat.title = title;
    return chat;
  }

  async list(query: ListSessionsQuery): Promise<{ sessions: ChatSessionSummary[]; nextCursor?: string }> {
    const store = await this.store();
    if (query.q !== undefined) return { sessions: await this.search(store, query, query.q) };
    const page = await store.sessions.list({ agent: query.agent, userId: query.userId, limit: query.limit, cursor: query.cursor });
    // Entries also hold handoff records: count the messages themselves (without loading them).
    const sessions = await Promise.all(
      page.sessions.map(async (s) => summary(s, await store.sessions.countMessages(s.id), await firstWords(store, s.id))),
    );
    return page.nextCursor ? { sessions, nextCursor: page.nextCursor } : { sessions };
  }

  /**
   * Sessions matching `q`: those whose messages the store's conversation search finds (most
   * relevant first), then recent ones whose id or title contains it.
   */
  private async search(store: Store, query: ListSessionsQuery, q: string): Promise<ChatSessionSummary[]> {
    const ids: string[] = [];
    // Words, as the endpoint promises (and no embedding per keystroke of a sidebar filter).
    for (const hit of await store.conversations.search(q, { userId: query.userId, limit: query.limit * 5, mode: 'keyword' }))
      if (!ids.includes(hit.sessionId)) ids.push(hit.sessionId);
    const needle = q.toLowerCase();
    const recent = await store.sessions.list({ agent: query.agent, userId: query.userId, limit: 500 });
    for (const s of recent.sessions) {
      if (ids.includes(s.id)) continue;
      if (s.id.toLowerCase().includes(needle) || (titleOf(s) ?? '').toLowerCase().includes(needle)) ids.push(s.id);
    }
    const out: ChatSessionSummary[] = [];
    for (const id of ids) {
      if (out.length === query.limit) break;
      const s = await store.sessions.get(id);
      if (s === undefined || (query.agent !== undefined && s.agent !== query.agent)) continue;
      if (query.userId !== undefined && s.userId !== query.userId) continue;
      out.push(summary(s, await store.sessions.countMessages(s.id), await firstWords(store, s.id)));
    }
    return out;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.store()).sessions.delete(id);
  }

  async rename(id: string, title: string): Promise<boolean> {
    const store = await this.store();
    const s = await store.sessions.get(id);
    if (s === undefined) return false;
    const metadata = { ...s.metadata };
    if (title === '') delete metadata.title;
    else metadata.title = title;
    await store.sessions.update(id, { metadata });
    return true;
  }
}

/** The title a session was given (`metadata.title`). */
function titleOf(s: Session): string | undefined {
  const t = s.metadata?.title;
  return typeof t === 'string' && t !== '' ? t : undefined;
}

/** The start of a session's first user message (see `previewOf`). */
async function firstWords(store: Store, id: string): Promise<string | undefined> {
  const first = await store.sessions.entries(id, { types: ['message'], limit: 3 });
  return previewOf(first.flatMap((e) => (e.message ? [e.message] : [])));
}

function summary(s: Session, messageCount: number, preview?: string): ChatSessionSummary {
  const out: ChatSessionSummary = {
    id: s.id,
    agent: s.agent,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    messageCount,
    activeAgent: s.activeAgent,
  };
  if (s.userId !== undefined) out.userId = s.userId;
  const title = titleOf(s);
  if (title !== undefined) out.title = title;
  if (preview !== undefined) out.preview = preview;
  return out;
}
