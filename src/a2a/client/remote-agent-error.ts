import { CorvidError } from '../../errors/corvid-error.js';

const MARKER = Symbol.for('corvid.error.RemoteAgentError');

/**
 * A remote (A2A) agent could not be reached, or its task failed, was rejected or canceled.
 * `code` is `provider_unavailable` when the agent could not be reached (or timed out),
 * `provider_error` when it answered with a failure.
 */
export class RemoteAgentError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `RemoteAgentError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is RemoteAgentError {
    return RemoteAgentError.hasMarker(error, MARKER);
  }

  /** The agent's URL (without credentials). */
  readonly url: string;
  /** The remote task's final state, when there was a task. */
  readonly taskState: string | undefined;

  constructor(message: string, options: { url: string; unreachable?: boolean; taskState?: string; cause?: unknown }) {
    super(message, { code: options.unreachable ? 'provider_unavailable' : 'provider_error', cause: options.cause });
    this.name = 'RemoteAgentError';
    this.url = options.url;
    this.taskState = options.taskState;
  }
}
