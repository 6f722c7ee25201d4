/**
 * Contracts of the knowledge subsystem (`corvid/knowledge`): documents are loaded from sources,
 * cut into chunks, optionally embedded, and kept in a `KnowledgeStore` that answers keyword and
 * vector searches. Hybrid search, reranking and the agent tool are built on top of these.
 */

/** Where a chunk comes from, for citations: `file:line range`, `URL#heading`, a page of a PDF. */
export interface ChunkLocation {
  /** The document's URI: a path relative to its source root, a URL, or `sql:<source>/<row id>`. */
  uri: string;
  /** First and last line (1-based, inclusive) in the document's text. */
  lines?: [number, number];
  /** Heading path (markdown/HTML), outermost first. */
  headings?: string[];
  /** Page number (1-based), for paged formats such as PDF. */
  page?: number;
}

/** A loaded document: its text and what is known about it. */
export interface KnowledgeDocument {
  /** Unique within an index; the same document keeps the same URI across ingests. */
  uri: string;
  /** The name of the source it came from (a key of `sources`, or `directory`, `url`, …). */
  source: string;
  title?: string;
  text: string;
  /** SHA-256 (hex) of `text`: an unchanged document is not re-chunked or re-embedded. */
  contentHash: string;
  metadata: Record<string, string | number | boolean>;
}

/** A piece of a document, the unit of search. */
export interface KnowledgeChunk {
  /** `<document uri>#<index>`. */
  id: string;
  documentUri: string;
  /** Position of the chunk in its document (0-based). */
  index: number;
  text: string;
  /** Token count (a real tokenizer where the embedder has one, an estimate otherwise). */
  tokens: number;
  /** SHA-256 (hex) of `text`; embeddings are cached by (model, hash). */
  hash: string;
  location: ChunkLocation;
  /** The document's metadata plus chunk-level fields (filters match on these). */
  metadata: Record<string, string | number | boolean>;
}

/** A chunk with its embedding (when the index has an embedder). */
export interface EmbeddedChunk extends KnowledgeChunk {
  vector?: Float32Array;
}

/** A value of chunk metadata, as filters compare it. */
export type MetadataValue = string | number | boolean;

/**
 * Conditions on one metadata key (all must hold). `$ne` and `$nin` also match chunks without the
 * key. `$gt`/`$gte`/`$lt`/`$lte` compare numbers with numbers, or an ISO 8601 date (`'2024-05-01'`,
 * `'2024-05-01T12:00:00Z'`; no offset means UTC) with values that are such dates, as instants.
 */
export interface MetadataCondition {
  $eq?: MetadataValue;
  $ne?: MetadataValue;
  $in?: MetadataValue[];
  $nin?: MetadataValue[];
  $gt?: number | string;
  $gte?: number | string;
  $lt?: number | string;
  $lte?: number | string;
  /** `true`: the key is present; `false`: it is absent. */
  $exists?: boolean;
  /** A string value that begins with this text (case-sensitive): `{ path: { $startsWith: 'guides/' } }`. */
  $startsWith?: string;
}

/**
 * A metadata filter: each key must match (a value: equal, JSON type included, so `true` is not
 * `1`; or a {@link MetadataCondition}), and `$and` / `$or` combine filters.
 * @example
 * { format: 'markdown', year: { $gte: 2023 }, $or: [{ lang: 'en' }, { lang: { $exists: false } }] }
 */
export type KnowledgeFilter = {
  $and?: KnowledgeFilter[];
  $or?: KnowledgeFilter[];
} & { [key: string]: MetadataValue | MetadataCondition | KnowledgeFilter[] | undefined };

/** One result of a store-level search; higher `score` is better (BM25-derived or cosine similarity). */
export interface ScoredChunk {
  chunk: KnowledgeChunk;
  score: number;
}

/** The embedder an index was built with; a different one needs a re-index instead of mixing vectors. */
export interface IndexEmbedder {
  model: string;
  dimensions: number;
}

/** What an index holds. */
export interface KnowledgeIndexInfo {
  name: string;
  embedder?: IndexEmbedder;
  documents: number;
  chunks: number;
  /** ISO time of the last change. */
  updatedAt?: string;
}

/** One named index of a store. */
export interface KnowledgeIndex {
  readonly name: string;
  /** `uri → contentHash` of every document, for incremental ingest. */
  documentHashes(): Promise<Map<string, string>>;
  /** Replaces a document and all of its chunks in one transaction (a reader never sees half of it). */
  putDocument(document: KnowledgeDocument, chunks: EmbeddedChunk[]): Promise<void>;
  /** Removes documents (and their chunks) by URI; unknown URIs are ignored. */
  deleteDocuments(uris: string[]): Promise<void>;
  /** Vectors already stored for these chunk hashes (the embedding cache), by hash. */
  vectorsByHash(hashes: string[]): Promise<Map<string, Float32Array>>;
  /** BM25 keyword search. */
  keywordSearch(query: { text: string; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]>;
  /**
   * Nearest chunks by cosine similarity.
   * @throws KnowledgeError when the index has no embedder or the vector's dimension differs.
   */
  vectorSearch(query: { vector: Float32Array; topK: number; filter?: KnowledgeFilter }): Promise<ScoredChunk[]>;
  stats(): Promise<KnowledgeIndexInfo>;
}

/** Where indexes live: memory, SQLite (FTS5 + sqlite-vec), Postgres (tsvector + pgvector). */
export interface KnowledgeStore {
  /**
   * Opens (creating when missing) index `name`. With `embedder`, records it on first use.
   * @throws KnowledgeError when the index was built with another embedder model or dimension.
   */
  openIndex(name: string, options?: { embedder?: IndexEmbedder }): Promise<KnowledgeIndex>;
  listIndexes(): Promise<KnowledgeIndexInfo[]>;
  /** Deletes an index; `false` when there was none. */
  dropIndex(name: string): Promise<boolean>;
  close(): Promise<void>;
}
