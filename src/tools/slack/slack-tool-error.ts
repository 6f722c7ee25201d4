import { CorvidError } from '../../errors/corvid-error.js';

/** A Slack call that failed or was refused; the message is written for the model and holds no token. */
export class SlackToolError extends CorvidError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'SlackToolError';
  }
}
