import { tool } from '../../core/tool.js';
import { userScoped } from '../../core/user-scoped.js';
import type { Tool } from '../../types/tool.js';
import { toolArgs } from '../tool-args.js';
import { type MemoryView, memoryView } from './memory-view.js';
import { memoryScope, type MemoryToolOptions, toolStore } from './tool-store.js';

/** Arguments of `search_memories`. */
export interface SearchMemoriesArgs {
  query: string;
  limit?: number;
}

const args = toolArgs<SearchMemoriesArgs>({
  query: {
    type: 'string',
    required: true,
    min: 1,
    max: 1000,
    description: "Keywords to look for in the memories' keys, values, categories and tags.",
  },
  limit: { type: 'integer', min: 1, max: 50, description: 'At most this many results, most relevant first. Default 5.' },
});

/** What `search_memories` returns. */
export interface SearchMemoriesOutput {
  count: number;
  results: Array<MemoryView & { score: number }>;
}

/** `search_memories`: keyword search over the current user's memories, most relevant first. */
export function createSearchMemories(options: MemoryToolOptions = {}): Tool<SearchMemoriesArgs, SearchMemoriesOutput> {
  return userScoped(
    tool({
      name: 'search_memories',
      description:
        'Search saved long-term memories about the user by keywords, most relevant first (any word may match). ' +
        'Use it when a request may relate to something the user told you before.',
      input: args.input,
      parameters: args.parameters,
      async execute(args, context) {
        const store = await toolStore(context, 'search_memories', options);
        const hits = await store.memories.search(memoryScope(context), args.query, { limit: args.limit ?? 5 });
        return { count: hits.length, results: hits.map((h) => ({ ...memoryView(h.memory), score: Math.round(h.score * 1000) / 1000 })) };
      },
    }),
  );
}

/** `search_memories` using the run's store (`ToolContext.store`). */
export const searchMemories = createSearchMemories();
