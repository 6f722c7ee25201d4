import { DurableRunError } from './durable-run-error.js';

/**
 * A durable run could not start or resume because another process (or another call in this one)
 * is running it now: it holds the run's lease. Code `storage_conflict`. A lease a dead process
 * held expires within the lease lifetime (`ttlMs`).
 */
export class RunLeaseHeldError extends DurableRunError {
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
