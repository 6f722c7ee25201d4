import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.WorkflowError');

/** A workflow agent that does not stop at the first failure (fail_fast: false) had no part succeed. */
export class WorkflowError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `WorkflowError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is WorkflowError {
    return WorkflowError.hasMarker(error, MARKER);
  }

  /** The workflow agent. */
  readonly agent: string;
  /** Each failed part (task id, or sub-agent name) with its error. */
  readonly failures: ReadonlyArray<{ id: string; error: unknown }>;

  constructor(options: { agent: string; kind: string; failures: ReadonlyArray<{ id: string; error: unknown }> }) {
    const list = options.failures.map((f) => `${f.id}: ${f.error instanceof Error ? f.error.message : String(f.error)}`).join('; ');
    super(`Every part of ${options.kind} agent "${options.agent}" failed: ${list}`, {
      code: 'workflow_failed',
      cause: options.failures[0]?.error,
    });
    this.name = 'WorkflowError';
    this.agent = options.agent;
    this.failures = options.failures;
  }
}
