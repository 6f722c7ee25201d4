import { RunState } from '../types/run-state.js';
import type { Session } from '../types/storage/sessions.js';
import type { Store } from '../types/storage/store.js';
import { addUsage, emptyUsage } from '../types/usage.js';
import type { ChatSession, ChatSessionSummary, ListSessionsQuery, SessionDirectory } from './chat-sessions.js';

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
    for (const e of entries) {
      if (e.message !== undefined) messages.push(e.message);
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
      state,
      usage,
      activeAgent: s.activeAgent,
    };
    if (s.userId !== undefined) chat.userId = s.userId;
    return chat;
  }

  async list(query: ListSessionsQuery): Promise<{ sessions: ChatSessionSummary[]; nextCursor?: string }> {
    const store = await this.store();
    const page = await store.sessions.list({ agent: query.agent, userId: query.userId, limit: query.limit, cursor: query.cursor });
    // Entries also hold handoff records: count the messages themselves (without loading them).
    const sessions = await Promise.all(page.sessions.map(async (s) => summary(s, await store.sessions.countMessages(s.id))));
    return page.nextCursor ? { sessions, nextCursor: page.nextCursor } : { sessions };
  }

  async delete(id: string): Promise<boolean> {
    return (await this.store()).sessions.delete(id);
  }
}

function summary(s: Session, messageCount: number): ChatSessionSummary {
  const out: ChatSessionSummary = {
    id: s.id,
    agent: s.agent,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    messageCount,
    activeAgent: s.activeAgent,
  };
  if (s.userId !== undefined) out.userId = s.userId;
  return out;
}
