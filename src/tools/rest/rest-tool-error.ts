import { CorvidError } from '../../errors/corvid-error.js';

/** A call to a REST tool server that failed; the message is written for the model. */
export class RestToolError extends CorvidError {
  /** The error `type` the server gave (`validation`, `execution`, `not_found`, `authentication`…), or `http` / `network` / `timeout`. */
  readonly type: string;

  constructor(message: string, options: { type: string; cause?: unknown }) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'RestToolError';
    this.type = options.type;
  }
}
