import { CorvidError } from './corvid-error.js';

/** A tool failed (threw, timed out, or got invalid arguments) and the agent was set to raise. */
export class ToolExecutionError extends CorvidError {
  readonly toolName: string;
  readonly toolCallId: string;

  constructor(message: string, options: { toolName: string; toolCallId: string; cause?: unknown }) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'ToolExecutionError';
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }
}
