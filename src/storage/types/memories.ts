/** The storage contracts live in the contracts layer (`src/types/storage/memories.ts`); re-exported here for the adapters. */
export type { MemoryScope, MemoryInput, Memory, MemoryFilter, MemorySearchHit, MemoryRecord, MemoryStore, MessageSearchHit, MessageSearchOptions, ConversationSearch } from '../../types/storage/memories.js';
