import { CorvidError } from '../../errors/corvid-error.js';

const MARKER = Symbol.for('corvid.error.FileToolError');

/** A file tool's refusal or failure, worded for the model, which reads it as it is (no stack, no wrapping). */
export class FileToolError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `FileToolError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is FileToolError {
    return FileToolError.hasMarker(error, MARKER);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'FileToolError';
  }
}
