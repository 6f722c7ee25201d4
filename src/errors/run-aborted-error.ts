import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.RunAbortedError');

/** The run was cancelled through its AbortSignal (Ctrl-C in the CLI). */
export class RunAbortedError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `RunAbortedError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is RunAbortedError {
    return RunAbortedError.hasMarker(error, MARKER);
  }

  /** What the model had streamed of the step it was in when the run was cancelled, if anything. */
  readonly partialText: string | undefined;

  constructor(message = 'The run was cancelled', options: { cause?: unknown; partialText?: string } = {}) {
    super(message, { code: 'run_aborted', cause: options.cause });
    this.name = 'RunAbortedError';
    this.partialText = options.partialText || undefined;
  }
}
