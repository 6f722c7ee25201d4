import { CorvidError } from './corvid-error.js';

/** The run was cancelled through its AbortSignal (Ctrl-C in the CLI). */
export class RunAbortedError extends CorvidError {
  constructor(message = 'The run was cancelled', options: { cause?: unknown } = {}) {
    super(message, { code: 'run_aborted', cause: options.cause });
    this.name = 'RunAbortedError';
  }
}
