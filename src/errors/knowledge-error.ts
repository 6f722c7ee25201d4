import { CorvidError, type CorvidErrorCode } from './corvid-error.js';

/** What went wrong in the knowledge subsystem. */
export type KnowledgeErrorKind = 'embedder_mismatch' | 'no_embedder' | 'dimension' | 'load' | 'embed' | 'unsupported' | 'failed';

const MARKER = Symbol.for('corvid.error.KnowledgeError');

/**
 * Loading, chunking, embedding or searching knowledge failed or was refused: an index built with
 * another embedder (re-index it), a vector search on an index without embeddings, a vector of the
 * wrong dimension, an unreadable document, an embedder that failed, a store without vector support.
 * `index` names the index and `uri` the document, when known.
 */
export class KnowledgeError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `KnowledgeError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is KnowledgeError {
    return KnowledgeError.hasMarker(error, MARKER);
  }

  readonly kind: KnowledgeErrorKind;
  readonly index?: string;
  readonly uri?: string;

  constructor(message: string, options: { kind: KnowledgeErrorKind; index?: string; uri?: string; cause?: unknown }) {
    const code: CorvidErrorCode = options.kind === 'embedder_mismatch' ? 'knowledge_embedder_mismatch' : 'knowledge_error';
    super(message, { code, cause: options.cause });
    this.name = 'KnowledgeError';
    this.kind = options.kind;
    this.index = options.index;
    this.uri = options.uri;
  }
}
