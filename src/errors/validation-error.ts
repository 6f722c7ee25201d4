import { CorvidError } from './corvid-error.js';

/** Input failed validation (tool arguments, API arguments, run options). */
export class ValidationError extends CorvidError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'validation_failed', cause: options.cause });
    this.name = 'ValidationError';
  }
}
