/** Whose memories: long-term memories belong to one user of one agent. */
export interface MemoryScope {
  userId: string;
  agent: string;
}

/** What `memories.save()` takes. */
export interface MemoryInput {
  /** Unique within the scope; saving an existing key updates it. At most 255 characters. */
  key: string;
  value: string;
  category?: string;
  tags?: string[];
  /** 1 (trivia) to 10 (essential), an integer. Default 5. */
  importance?: number;
}

/** A stored memory. */
export interface Memory {
  key: string;
  value: string;
  category?: string;
  tags: string[];
  importance: number;
  /** First save; kept by later saves of the same key. */
  createdAt: Date;
  /** Last save. */
  updatedAt: Date;
}

/** Filters for `memories.list()`; results are newest (by `updatedAt`) first. */
export interface MemoryFilter {
  category?: string;
  tags?: string[];
  /** `any` (default): at least one of `tags`; `all`: every one. */
  tagMode?: 'any' | 'all';
  minImportance?: number;
  /** Default 100. */
  limit?: number;
}

/** A search hit: the memory and its relevance (higher is better; comparable within one result list only). */
export interface MemorySearchHit {
  memory: Memory;
  score: number;
}

/** A memory as exported: `exportJson()` returns `{ [key]: MemoryRecord }`. Dates are ISO strings. */
export interface MemoryRecord {
  value: string;
  category?: string;
  tags: string[];
  importance: number;
  createdAt: string;
  updatedAt: string;
}

/** Long-term memories with filters and keyword search ranked by relevance. */
export interface MemoryStore {
  /** Creates or updates (by key) a memory; an update keeps `createdAt` and moves `updatedAt`. */
  save(scope: MemoryScope, input: MemoryInput): Promise<Memory>;
  /** The memory with this key, or undefined. */
  get(scope: MemoryScope, key: string): Promise<Memory | undefined>;
  /** Memories matching every given filter, newest first. */
  list(scope: MemoryScope, filter?: MemoryFilter): Promise<Memory[]>;
  /**
   * Keyword search over key, value, category and tags, most relevant first (any word may match;
   * more matching and rarer words rank higher). Default limit 10.
   */
  search(
    scope: MemoryScope,
    query: string,
    options?: { limit?: number; category?: string; minImportance?: number },
  ): Promise<MemorySearchHit[]>;
  delete(scope: MemoryScope, key: string): Promise<boolean>;
  /** Every memory of the scope as `{ [key]: record }`. */
  exportJson(scope: MemoryScope): Promise<Record<string, MemoryRecord>>;
  /**
   * Saves every record (timestamps kept when given); `replace: true` first deletes the scope's
   * other memories. Validates everything before writing anything. Resolves with the count saved.
   */
  importJson(
    scope: MemoryScope,
    data: Record<string, Partial<MemoryRecord> & { value: string }>,
    options?: { replace?: boolean },
  ): Promise<number>;
}

/** A conversation search hit. */
export interface MessageSearchHit {
  sessionId: string;
  seq: number;
  agent?: string;
  role?: string;
  /** The matching text around the first match (at most ~200 characters). */
  snippet: string;
  /** Relevance, higher is better (comparable within one result list only). */
  score: number;
  createdAt: Date;
}

/**
 * How a conversation search ranks: `keyword` (full text), `vector` (cosine over the messages'
 * embeddings) or `hybrid` (both, fused by reciprocal rank). Vector and hybrid need a store with an
 * embedder (`withVectorConversations`, or `storage.embedder` in corvid.yaml).
 */
export type ConversationSearchMode = 'keyword' | 'vector' | 'hybrid';

/** Options for a conversation search. */
export interface MessageSearchOptions {
  /** Only sessions of this user. */
  userId?: string;
  /** Only entries produced by this agent. */
  agent?: string;
  sessionId?: string;
  /** Default 20. */
  limit?: number;
  /**
   * Default: `hybrid` on a store with an embedder, else `keyword`. `vector` or `hybrid` on a store
   * without one fails with a ValidationError.
   */
  mode?: ConversationSearchMode;
}

/** Search over past messages of every session: by keywords, and by meaning when the store has an embedder. */
export interface ConversationSearch {
  /** The modes this store answers (`['keyword']` without an embedder). */
  readonly modes?: readonly ConversationSearchMode[];
  /** Messages matching `query` (keyword mode: any of its words), most relevant first. */
  search(query: string, options?: MessageSearchOptions): Promise<MessageSearchHit[]>;
}
