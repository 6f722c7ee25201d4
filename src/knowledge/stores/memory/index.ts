/** The in-memory knowledge store (`MemoryKnowledgeStore`): nothing to open, lost when the process exits. */
export { cosine, MemoryKnowledgeStore } from './memory-knowledge-store.js';
