/**
 * The memory tools: `save_memory`, `get_memories`, `search_memories` and `search_conversations`,
 * backed by the run's store (`ToolContext.store`) or the store given to `createMemoryTools()`.
 * Their names (`MEMORY_TOOL_NAMES`) live apart in `builtin-tool-names.ts`, so config validation
 * loads none of their code.
 */
export { isMemoryToolName, MEMORY_TOOL_NAMES, type MemoryToolName } from './builtin-tool-names.js';
export { createGetMemories, getMemories, type GetMemoriesArgs, type GetMemoriesOutput } from './get-memories.js';
export { builtinTools, createMemoryTools, memoryTools } from './memory-tools.js';
export type { MemoryView } from './memory-view.js';
export { createSaveMemory, saveMemory, type SaveMemoryArgs, type SaveMemoryOutput } from './save-memory.js';
export {
  type ConversationHitView,
  createSearchConversations,
  searchConversations,
  type SearchConversationsArgs,
  type SearchConversationsOutput,
} from './search-conversations.js';
export { createSearchMemories, searchMemories, type SearchMemoriesArgs, type SearchMemoriesOutput } from './search-memories.js';
export { DEFAULT_MEMORY_USER, type MemoryStoreSource, type MemoryToolOptions } from './tool-store.js';
