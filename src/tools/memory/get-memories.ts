import { tool } from '../../core/tool.js';
import { userScoped } from '../../core/user-scoped.js';
import type { Tool } from '../../types/tool.js';
import { toolArgs } from '../tool-args.js';
import { type MemoryView, memoryView } from './memory-view.js';
import { memoryScope, type MemoryToolOptions, toolStore } from './tool-store.js';

/** Arguments of `get_memories`. */
export interface GetMemoriesArgs {
  category?: string;
  tags?: string[];
  tag_mode?: 'any' | 'all';
  min_importance?: number;
  limit?: number;
}

const args = toolArgs<GetMemoriesArgs>({
  category: { type: 'string', min: 1, max: 100, description: 'Only memories in this category.' },
  tags: { type: 'string-array', max: 20, itemMax: 100, description: 'Only memories with these tags (see tag_mode).' },
  tag_mode: { type: 'enum', values: ['any', 'all'], description: '"any" (default): at least one of the tags; "all": every tag.' },
  min_importance: { type: 'integer', min: 1, max: 10, description: 'Only memories at least this important (1-10).' },
  limit: { type: 'integer', min: 1, max: 100, description: 'At most this many memories, newest first. Default 20.' },
});

/** What `get_memories` returns. */
export interface GetMemoriesOutput {
  count: number;
  memories: MemoryView[];
}

/**
 * `get_memories`: lists the current user's long-term memories for this agent, newest first,
 * filtered by category, tags and importance.
 */
export function createGetMemories(options: MemoryToolOptions = {}): Tool<GetMemoriesArgs, GetMemoriesOutput> {
  return userScoped(
    tool({
      name: 'get_memories',
      description:
        'List saved long-term memories about the user, newest first, optionally filtered by category, tags or minimum importance. ' +
        'Use it at the start of a conversation or when earlier preferences or facts may matter. To look for a topic, use search_memories.',
      input: args.input,
      parameters: args.parameters,
      async execute(args, context) {
        const store = await toolStore(context, 'get_memories', options);
        const found = await store.memories.list(memoryScope(context), {
          ...(args.category !== undefined ? { category: args.category } : {}),
          ...(args.tags !== undefined ? { tags: args.tags } : {}),
          ...(args.tag_mode !== undefined ? { tagMode: args.tag_mode } : {}),
          ...(args.min_importance !== undefined ? { minImportance: args.min_importance } : {}),
          limit: args.limit ?? 20,
        });
        return { count: found.length, memories: found.map(memoryView) };
      },
    }),
  );
}

/** `get_memories` using the run's store (`ToolContext.store`). */
export const getMemories = createGetMemories();
