import { DurableRunError } from './durable-run-error.js';

const MARKER = Symbol.for('corvid.error.RunLeaseHeldError');

/**
 * A durable run could not start or resume because another process (or another call in this one)
 * is running it now: it holds the run's lease. Code `storage_conflict`. A lease a dead process
 * held expires within the lease lifetime (`ttlMs`).
 */
export class RunLeaseHeldError extends DurableRunError {
  private readonly [MARKER] = true;

  /** True for a `RunLeaseHeldError`, also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is RunLeaseHeldError {
    return RunLeaseHeldError.hasMarker(error, MARKER);
  }

  constructor(runId: string, ttlMs: number) {
    super(
      `Run "${runId}" is being run by another process right now; try again once it ends (or, if that process died, within ${Math.ceil(ttlMs / 1000)} s)`,
      {
        kind: 'conflict',
        runId,
      },
    );
    this.name = 'RunLeaseHeldError';
  }
}
