/**
 * `corvid/knowledge`: documents from sources (a folder, web pages, SQL rows, your own), cut into chunks, optionally
 * embedded, indexed in a store, searched by keyword (BM25), vector (cosine) or both (fused by
 * their scaled scores), optionally rewritten (multi-query, HyDE), reranked and diversified (MMR), and offered
 * to agents as the `search_knowledge` tool or as passages in their instructions (`kb.asContext()`).
 * @example
 * import { createKnowledgeBase, directorySource } from 'corvid/knowledge';
 * const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: './docs', include: ['**\/*.md'] })] });
 * await kb.ingest();
 * const agent = new Agent({ name: 'helper', model, tools: [kb.asTool()] });
 */
export { KnowledgeError, type KnowledgeErrorKind } from '../errors/knowledge-error.js';
export type {
  ChunkLocation,
  EmbeddedChunk,
  IndexEmbedder,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeFilter,
  KnowledgeIndex,
  KnowledgeIndexInfo,
  KnowledgeStore,
  MetadataCondition,
  MetadataValue,
  ScoredChunk,
} from '../types/knowledge.js';
export { chunkDocument, type ChunkingOptions } from './chunkers/chunk-document.js';
export { citation } from './citation.js';
export { directorySource, type DirectorySourceOptions } from './directory-source.js';
export { type Embedder, modelEmbedder, type ModelEmbedderOptions } from './embedder.js';
export { contentHash } from './hash.js';
export type { IngestProgress, IngestReport, IngestStatus } from './ingest-documents.js';
export {
  createKnowledgeBase,
  type KnowledgeBase,
  type KnowledgeBaseOptions,
  type KnowledgeHit,
  type KnowledgeRetrieval,
  type KnowledgeSearchOptions,
  type SearchMode,
} from './knowledge-base.js';
export type { KnowledgeContextOptions } from './knowledge-context.js';
export type { KnowledgeSource, SourceListContext } from './knowledge-source.js';
export type { KnowledgeToolHit, KnowledgeToolOptions } from './knowledge-tool.js';
export { DEFAULT_MAX_FILE_BYTES, loadFile, type LoadFileOptions } from './loaders/load-file.js';
export { maximalMarginalRelevance } from './mmr.js';
export { hydeRewriter, multiQueryRewriter, type QueryRewriter, type QueryRewriterOptions } from './query-rewriter.js';
export { assertReadOnlySelect } from './read-only-sql.js';
export { llmReranker, type LlmRerankerOptions, modelReranker, type Reranker } from './reranker.js';
export { reciprocalRankFusion } from './rrf.js';
export { HYBRID_KEYWORD_WEIGHT, scoreFusion } from './score-fusion.js';
export { sqlSource, type SqlSourceOptions } from './sql-source.js';
export { cosine, MemoryKnowledgeStore } from './stores/memory/index.js';
export { openPostgresKnowledgeStore, type PostgresKnowledgeStoreOptions } from './stores/postgres/index.js';
export { openSqliteKnowledgeStore, type SqliteKnowledgeStoreOptions, type SqliteVectorSearchMode } from './stores/sqlite/index.js';
export { openAiEncoding, tiktokenCounter, type TiktokenEncodingName } from './tiktoken-counter.js';
export { approximateTokenCounter, type TokenCounter } from './token-counter.js';
export { urlSource, type UrlSourceOptions } from './url-source.js';
export { deleteConversationVectors, type VectorConversationOptions, withVectorConversations } from './vector-conversations.js';
export { memoryText, vectorMemories, type VectorMemoryOptions, withVectorMemories } from './vector-memories.js';
export { LOCAL_VECTORS_PACKAGE, wordVectorEmbedder, type WordVectorEmbedderOptions } from './word-vector-embedder.js';
