import type { Tool } from '../../types/tool.js';
import type { MemoryToolName } from './builtin-tool-names.js';
import { createGetMemories, getMemories } from './get-memories.js';
import { createSaveMemory, saveMemory } from './save-memory.js';
import { createSearchConversations, searchConversations } from './search-conversations.js';
import { createSearchMemories, searchMemories } from './search-memories.js';
import type { MemoryToolOptions } from './tool-store.js';

/** The memory tools and conversation search by name. */
export const builtinTools: Readonly<Record<MemoryToolName, Tool>> = {
  save_memory: saveMemory,
  get_memories: getMemories,
  search_memories: searchMemories,
  search_conversations: searchConversations,
};

/** `save_memory`, `get_memories`, `search_memories` and `search_conversations`, for `new Agent({ tools })`; they use the run's store. */
export const memoryTools: Tool[] = [saveMemory, getMemories, searchMemories, searchConversations];

/**
 * The four tools by name, using the run's store when it has one (session runs) and else
 * `options.store` (a store, or a function opening one on first use).
 * @example
 * const tools = createMemoryTools({ store: () => openStore() });
 * const agent = new Agent({ name: 'helper', model, tools: Object.values(tools) });
 */
export function createMemoryTools(options: MemoryToolOptions = {}): Record<MemoryToolName, Tool> {
  return {
    save_memory: createSaveMemory(options),
    get_memories: createGetMemories(options),
    search_memories: createSearchMemories(options),
    search_conversations: createSearchConversations(options),
  };
}
