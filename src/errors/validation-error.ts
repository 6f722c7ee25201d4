import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.ValidationError');

/** Input failed validation (tool arguments, API arguments, run options). */
export class ValidationError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `ValidationError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is ValidationError {
    return ValidationError.hasMarker(error, MARKER);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'validation_failed', cause: options.cause });
    this.name = 'ValidationError';
  }
}
