import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.ToolExecutionError');

/** A tool failed (threw, timed out, or got invalid arguments) and the agent was set to raise. */
export class ToolExecutionError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `ToolExecutionError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is ToolExecutionError {
    return ToolExecutionError.hasMarker(error, MARKER);
  }

  readonly toolName: string;
  readonly toolCallId: string;

  constructor(message: string, options: { toolName: string; toolCallId: string; cause?: unknown }) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'ToolExecutionError';
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }
}
