import { CorvidError } from './corvid-error.js';

/** Why a durable run cannot start or resume. */
export type DurableRunErrorKind = 'not_found' | 'conflict' | 'invalid';

const CODES = { not_found: 'not_found', conflict: 'storage_conflict', invalid: 'validation_failed' } as const;

const MARKER = Symbol.for('corvid.error.DurableRunError');

/**
 * A session run, resume or approval went wrong: an unknown run id, a run that is not resumable
 * (completed, another agent's, a checkpoint from a newer Corvid), a session another run wrote to
 * meanwhile, or a run that needs a store and has none. `runId` names the run when there is one.
 */
export class DurableRunError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `DurableRunError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is DurableRunError {
    return DurableRunError.hasMarker(error, MARKER);
  }

  readonly kind: DurableRunErrorKind;
  readonly runId?: string;

  constructor(message: string, options: { kind: DurableRunErrorKind; runId?: string; cause?: unknown }) {
    super(message, { code: CODES[options.kind], cause: options.cause });
    this.name = 'DurableRunError';
    this.kind = options.kind;
    if (options.runId !== undefined) this.runId = options.runId;
  }
}
