import { CorvidError } from '../../errors/corvid-error.js';

const MARKER = Symbol.for('corvid.error.RestToolError');

/** A call to a REST tool server that failed; the message is written for the model. */
export class RestToolError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `RestToolError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is RestToolError {
    return RestToolError.hasMarker(error, MARKER);
  }

  /** The error `type` the server gave (`validation`, `execution`, `not_found`, `authentication`…), or `http` / `network` / `timeout`. */
  readonly type: string;

  constructor(message: string, options: { type: string; cause?: unknown }) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'RestToolError';
    this.type = options.type;
  }
}
