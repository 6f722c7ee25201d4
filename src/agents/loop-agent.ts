import type { LoopControl } from '../core/run-options.js';
import type { Runnable } from '../core/runnable.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { RunResult, SubRunOutcome } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import { checkSubAgents, WorkflowAgent, type WorkflowAgentOptions, type WorkflowOutput, type WorkflowRun } from './workflow-agent.js';

/** What a loop's `until` condition receives after each sub-agent run. */
export interface LoopConditionContext {
  state: RunState;
  /** The sub-agent run that just finished. */
  last: RunResult;
  /** The current iteration, from 1. */
  iteration: number;
}

/** Options for `new LoopAgent()`. */
export interface LoopAgentOptions extends WorkflowAgentOptions {
  /** The agents to run, in order, in every iteration. */
  subAgents: Runnable[];
  /** Iterations at most. Default 10. */
  maxIterations?: number;
  /** Checked after each sub-agent run; when it returns true the loop ends. */
  until?: (context: LoopConditionContext) => boolean | Promise<boolean>;
  /** What reaching `maxIterations` does: `stop` (default) ends the loop normally; `error` fails with LimitExceededError. */
  onMaxIterations?: 'stop' | 'error';
}

/** The default iteration cap of a loop agent. */
export const DEFAULT_MAX_ITERATIONS = 10;

/**
 * Runs its sub-agents in order, again and again, until one of them calls the `exit_loop` tool,
 * the `until` condition holds, or `maxIterations` is reached. Sub-agents share the run state, so
 * each iteration can build on the last (`{output.critic?}` in a writer's instructions). The answer
 * is the last sub-agent run's; `result.workflow` tells the iterations and why the loop ended.
 */
export class LoopAgent extends WorkflowAgent {
  readonly kind = 'loop' as const;
  readonly maxIterations: number;
  readonly onMaxIterations: 'stop' | 'error';
  private readonly parts: Runnable[];
  private readonly until: LoopAgentOptions['until'];

  constructor(options: LoopAgentOptions) {
    super(options);
    this.parts = checkSubAgents('loop', this.name, options.subAgents);
    const max = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    if (!Number.isInteger(max) || max < 1)
      throw new ValidationError(`Loop agent "${this.name}": maxIterations must be a positive whole number, got ${max}`);
    this.maxIterations = max;
    this.onMaxIterations = options.onMaxIterations ?? 'stop';
    this.until = options.until;
  }

  get subAgents(): readonly Runnable[] {
    return this.parts;
  }

  protected async runWorkflow(run: WorkflowRun): Promise<WorkflowOutput> {
    const subRuns: SubRunOutcome[] = [];
    const control: LoopControl = {
      exited: false,
      exit() {
        this.exited = true;
      },
    };
    let last: SubRunOutcome | undefined;
    let iteration = 0;
    let exitReason: 'exit_loop' | 'condition' | 'max_iterations' | undefined;
    while (exitReason === undefined) {
      if (iteration >= this.maxIterations) {
        if (this.onMaxIterations === 'error') {
          const err = new LimitExceededError({
            limit: 'max_iterations',
            value: this.maxIterations,
            agent: this.name,
            path: run.path,
            detail: 'without exit_loop being called or its until condition holding',
          });
          throw run.tree ? run.tree.fail(err) : err;
        }
        exitReason = 'max_iterations';
        break;
      }
      iteration++;
      for (const agent of this.parts) {
        last = await run.runPart(agent, run.input, { iteration, loop: control });
        subRuns.push(last);
        if (last.status !== 'completed') throw last.error;
        if (control.exited) {
          exitReason = 'exit_loop';
          break;
        }
        if (this.until && (await this.until({ state: run.state, last: last.result!, iteration }))) {
          exitReason = 'condition';
          break;
        }
      }
    }
    return {
      text: last?.text ?? '',
      subRuns,
      finishReason: last?.result?.finishReason,
      info: { iterations: iteration, exitReason },
    };
  }
}
