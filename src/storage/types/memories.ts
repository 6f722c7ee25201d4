/** The storage contracts live in the contracts layer (`src/types/storage/memories.ts`); re-exported here for the adapters. */
export type {
  ConversationSearch,
  Memory,
  MemoryFilter,
  MemoryInput,
  MemoryRecord,
  MemoryScope,
  MemorySearchHit,
  MemoryStore,
  MessageSearchHit,
  MessageSearchOptions,
} from '../../types/storage/memories.js';
