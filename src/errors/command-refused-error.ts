import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.CommandRefusedError');

/**
 * The shell tool refused a command line (denied or not allowed by its rules, a construct it does
 * not run, a redirection out of the workspace, a parse error). The message is written for the
 * model: it names the command or construct and why; the run goes on (it becomes an error result).
 */
export class CommandRefusedError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `CommandRefusedError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is CommandRefusedError {
    return CommandRefusedError.hasMarker(error, MARKER);
  }

  /** The command line as it was asked for. */
  readonly command: string;

  constructor(message: string, options: { command: string; cause?: unknown }) {
    super(message, { code: 'command_refused', cause: options.cause });
    this.name = 'CommandRefusedError';
    this.command = options.command;
  }
}
