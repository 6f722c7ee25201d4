/** The PostgreSQL knowledge store (`openPostgresKnowledgeStore`): full-text search and pgvector. */
export { openPostgresKnowledgeStore, type PostgresKnowledgeStoreOptions } from './postgres-knowledge-store.js';
