import { tool } from '../../core/tool.js';
import { userScoped } from '../../core/user-scoped.js';
import type { ConversationSearchMode } from '../../types/storage/memories.js';
import type { Tool } from '../../types/tool.js';
import { toolArgs } from '../tool-args.js';
import { isoSecond, type MemoryToolOptions, toolStore } from './tool-store.js';

/** Arguments of `search_conversations`. */
export interface SearchConversationsArgs {
  query: string;
  limit?: number;
  mode?: ConversationSearchMode;
}

const args = toolArgs<SearchConversationsArgs>({
  query: {
    type: 'string',
    required: true,
    min: 1,
    max: 1000,
    description: 'What to look for in past messages: keywords, or a question when the store searches by meaning.',
  },
  limit: { type: 'integer', min: 1, max: 50, description: 'At most this many messages, most relevant first. Default 10.' },
  mode: {
    type: 'enum',
    values: ['keyword', 'vector', 'hybrid'],
    description:
      'keyword: messages sharing words with the query; vector: messages close in meaning; hybrid: both. Default: hybrid where the store has an embedder, else keyword (the only mode there).',
  },
});

/** One message found by `search_conversations`. */
export interface ConversationHitView {
  session_id: string;
  /** True for a message of the conversation in progress. */
  this_session: boolean;
  role?: string;
  agent?: string;
  /** The matching text around the first match. */
  snippet: string;
  date: string;
}

/** What `search_conversations` returns. */
export interface SearchConversationsOutput {
  count: number;
  /** The mode searched. */
  mode: ConversationSearchMode;
  results: ConversationHitView[];
}

/**
 * `search_conversations`: search over past messages of the current user's sessions (every session
 * when the run names no user), most relevant first: by keywords, and by meaning too (`hybrid`, the
 * default then) when the store has an embedder (`storage.embedder`). Asking for `vector` or
 * `hybrid` on a keyword-only store comes back to the model as an error.
 */
export function createSearchConversations(options: MemoryToolOptions = {}): Tool<SearchConversationsArgs, SearchConversationsOutput> {
  return userScoped(
    tool({
      name: 'search_conversations',
      description:
        'Search the messages of past conversations with this user, most relevant first. ' +
        'Use it when the user refers to something discussed before ("what did we decide last week about…").',
      input: args.input,
      parameters: args.parameters,
      async execute(args, context) {
        const store = await toolStore(context, 'search_conversations', options);
        const mode = args.mode ?? (store.conversations.modes?.includes('hybrid') ? 'hybrid' : 'keyword');
        const hits = await store.conversations.search(args.query, {
          ...(context.userId !== undefined ? { userId: context.userId } : {}),
          limit: args.limit ?? 10,
          mode,
        });
        return {
          count: hits.length,
          mode,
          results: hits.map((h) => ({
            session_id: h.sessionId,
            this_session: h.sessionId === context.sessionId,
            ...(h.role !== undefined ? { role: h.role } : {}),
            ...(h.agent !== undefined ? { agent: h.agent } : {}),
            snippet: h.snippet,
            date: isoSecond(h.createdAt),
          })),
        };
      },
    }),
  );
}

/** `search_conversations` using the run's store (`ToolContext.store`). */
export const searchConversations = createSearchConversations();
