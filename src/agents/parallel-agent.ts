import { linkAbort } from '../core/abort-link.js';
import type { Runnable } from '../core/runnable.js';
import { ValidationError } from '../errors/validation-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import type { SubRunOutcome } from '../types/result.js';
import {
  checkSubAgents,
  isFatal,
  joinSections,
  WorkflowAgent,
  type WorkflowAgentOptions,
  type WorkflowOutput,
  type WorkflowRun,
} from './workflow-agent.js';

/** Options for `new ParallelAgent()`. */
export interface ParallelAgentOptions extends WorkflowAgentOptions {
  /** The agents to run at the same time, each on the same input. */
  subAgents: Runnable[];
  /** At most this many run at once. Default: all. */
  maxConcurrency?: number;
  /**
   * Default true: the first failure cancels the other branches and fails the run. False: every
   * branch runs to its end and the answer holds what succeeded (the run fails only if all fail).
   */
  failFast?: boolean;
}

/**
 * Runs its sub-agents concurrently on the same input and collects their answers, as `## <agent>`
 * sections in sub-agent order (one branch: its answer alone). Cancelling the run stops every branch.
 */
export class ParallelAgent extends WorkflowAgent {
  readonly kind = 'parallel' as const;
  readonly maxConcurrency: number;
  readonly failFast: boolean;
  private readonly parts: Runnable[];

  constructor(options: ParallelAgentOptions) {
    super(options);
    this.parts = checkSubAgents('parallel', this.name, options.subAgents);
    this.maxConcurrency = positiveOrAll(options.maxConcurrency, 'maxConcurrency', this.name);
    this.failFast = options.failFast ?? true;
  }

  get subAgents(): readonly Runnable[] {
    return this.parts;
  }

  protected async runWorkflow(run: WorkflowRun): Promise<WorkflowOutput> {
    const parts = this.parts;
    // Aborted by the first failure (fail-fast), or with the run's own signal.
    const stop = new AbortController();
    const unlink = linkAbort(run.signal, stop);
    const signal = stop.signal;
    const outcomes = new Array<SubRunOutcome>(parts.length);
    const finished: SubRunOutcome[] = [];
    let firstFailure: SubRunOutcome | undefined;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < parts.length) {
        const i = next++;
        if (stop.signal.aborted) {
          outcomes[i] = run.skip(parts[i].name, parts[i].name);
          continue;
        }
        const o = await run.runPart(parts[i], run.input, { signal });
        outcomes[i] = o;
        finished.push(o);
        if (o.status !== 'completed' && !firstFailure && !(o.status === 'aborted' && stop.signal.aborted)) {
          firstFailure = o;
          if (this.failFast || isFatal(o)) stop.abort(o.error);
        }
      }
    };
    const workers: Promise<void>[] = [];
    for (let i = 0; i < Math.min(this.maxConcurrency, parts.length); i++) workers.push(worker());
    try {
      await Promise.all(workers);
    } finally {
      unlink();
    }
    run.throwIfAborted();
    if (firstFailure && (this.failFast || isFatal(firstFailure))) throw firstFailure.error;
    const done = outcomes.filter((o) => o.status === 'completed');
    if (done.length === 0) {
      throw new WorkflowError({ agent: this.name, kind: 'parallel', failures: outcomes.map((o) => ({ id: o.id, error: o.error })) });
    }
    const text = joinSections(
      outcomes.map((o) => (o.status === 'completed' ? { id: o.id, text: o.text! } : { id: `${o.id} (failed)`, text: errorText(o.error) })),
    );
    return { text, subRuns: finished };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A positive integer limit, or Infinity when absent. */
export function positiveOrAll(value: number | undefined, key: string, agent: string): number {
  if (value === undefined) return Infinity;
  if (!Number.isInteger(value) || value < 1)
    throw new ValidationError(`Agent "${agent}": ${key} must be a positive whole number, got ${value}`);
  return value;
}
