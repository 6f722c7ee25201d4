import type { KnowledgeError } from '../errors/knowledge-error.js';
import type { KnowledgeDocument } from '../types/knowledge.js';

/** What a source gets while listing: the abort signal and where to report a document it could not load. */
export interface SourceListContext {
  signal?: AbortSignal;
  /** A document that could not be loaded; the ingest reports it and goes on (its indexed version stays). */
  report(error: KnowledgeError): void;
}

/**
 * Where documents come from: a folder, a list of URLs, a database, anything. Every document has a
 * stable `uri`; a document no longer listed leaves the index at the next ingest.
 * @example
 * const notes: KnowledgeSource = {
 *   name: 'notes',
 *   async *list() { yield { uri: 'note-1', source: 'notes', text, contentHash: sha256(text), metadata: {} }; },
 * };
 */
export interface KnowledgeSource {
  readonly name: string;
  list(context: SourceListContext): AsyncIterable<KnowledgeDocument>;
  /** How many documents `list` will give, without loading them (for progress and ETA); optional. */
  count?(context: { signal?: AbortSignal }): Promise<number | undefined>;
  /** Folders whose changes change this source's documents (`corvid ingest --watch` follows them). */
  readonly watchPaths?: readonly string[];
}
