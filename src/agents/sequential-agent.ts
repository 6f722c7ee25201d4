import type { Runnable } from '../core/runnable.js';
import type { SubRunOutcome } from '../types/result.js';
import { checkSubAgents, WorkflowAgent, type WorkflowAgentOptions, type WorkflowOutput, type WorkflowRun } from './workflow-agent.js';

/** Options for `new SequentialAgent()`. */
export interface SequentialAgentOptions extends WorkflowAgentOptions {
  /** The agents to run, in order. */
  subAgents: Runnable[];
}

/**
 * Runs its sub-agents one after another on the same input. Each sees what the earlier ones
 * produced through the shared state: `{output.<agent>}` in its instructions (or `outputKey` +
 * `{state.<key>}`). The answer is the last sub-agent's; the first failure stops the sequence.
 * @example
 * const research = new SequentialAgent({ name: 'research', subAgents: [researcher, writer] });
 * // writer's instructions: 'Write an article from these notes: {output.researcher}'
 */
export class SequentialAgent extends WorkflowAgent {
  readonly kind = 'sequential' as const;
  private readonly parts: Runnable[];

  constructor(options: SequentialAgentOptions) {
    super(options);
    this.parts = checkSubAgents('sequential', this.name, options.subAgents);
  }

  get subAgents(): readonly Runnable[] {
    return this.parts;
  }

  protected async runWorkflow(run: WorkflowRun): Promise<WorkflowOutput> {
    const subRuns: SubRunOutcome[] = [];
    let last: SubRunOutcome | undefined;
    for (const agent of this.parts) {
      last = await run.runPart(agent, run.input);
      subRuns.push(last);
      if (last.status !== 'completed') throw last.error;
    }
    return { text: last!.text!, subRuns, finishReason: last!.result!.finishReason };
  }
}
