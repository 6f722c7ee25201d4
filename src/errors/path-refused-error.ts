import { CorvidError } from './corvid-error.js';

/** Why a path was refused by a `PathPolicy`. */
export type PathRefusalReason =
  'invalid' | 'lookalike' | 'outside-root' | 'symlink-escape' | 'denied' | 'read-only' | 'hard-link' | 'special-file';

const MARKER = Symbol.for('corvid.error.PathRefusedError');

/**
 * A tool was asked for a path its policy does not allow (outside the roots, denied, read-only…).
 * The message is written for the model: it says what was refused and why, so it can retry;
 * the run goes on (a tool turns it into an error result).
 */
export class PathRefusedError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `PathRefusedError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is PathRefusedError {
    return PathRefusedError.hasMarker(error, MARKER);
  }

  /** The path as it was requested. */
  readonly path: string;
  readonly reason: PathRefusalReason;

  constructor(message: string, options: { path: string; reason: PathRefusalReason; cause?: unknown }) {
    super(message, { code: 'path_refused', cause: options.cause });
    this.name = 'PathRefusedError';
    this.path = options.path;
    this.reason = options.reason;
  }
}
