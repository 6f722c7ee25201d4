import { CorvidError } from '../../errors/corvid-error.js';

const MARKER = Symbol.for('corvid.error.SlackToolError');

/** A Slack call that failed or was refused; the message is written for the model and holds no token. */
export class SlackToolError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `SlackToolError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is SlackToolError {
    return SlackToolError.hasMarker(error, MARKER);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'SlackToolError';
  }
}
