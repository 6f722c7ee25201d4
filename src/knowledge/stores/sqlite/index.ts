/** The SQLite knowledge store (`openSqliteKnowledgeStore`): FTS5 keyword search, sqlite-vec or in-process vectors. */
export type { SqliteVectorSearchMode } from './sqlite-knowledge-index.js';
export { openSqliteKnowledgeStore, type SqliteKnowledgeStoreOptions } from './sqlite-knowledge-store.js';
