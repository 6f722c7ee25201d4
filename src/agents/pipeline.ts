import type { Runnable } from '../core/runnable.js';
import { type CompiledTemplate, compileTemplate, renderTemplate } from '../core/template.js';
import { ValidationError } from '../errors/validation-error.js';
import type { RunInput } from '../types/message.js';
import type { SubRunOutcome } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import { WorkflowAgent, type WorkflowAgentOptions, type WorkflowOutput, type WorkflowRun } from './workflow-agent.js';

/** What a stage's `transform` function receives besides the previous result. */
export interface StageContext {
  /** The pipeline's input as text. */
  input: string;
  /** This stage's name and position (0-based). */
  stage: string;
  index: number;
  state: RunState;
}

/** One stage of a pipeline. */
export interface PipelineStage {
  /** Unique name in events and results (`{output.<name>}`); default the agent's name. */
  name?: string;
  agent: Runnable;
  /**
   * Turns the previous stage's result (the pipeline's input for the first stage) into this
   * stage's request. A string is a template: `{previous}`, `{input}`, `{output.<stage>}`, `{state.x}`…
   * Default: the previous result as it is.
   */
  transform?: string | ((previous: string, context: StageContext) => RunInput | Promise<RunInput>);
}

/** Options for `new Pipeline()`. */
export interface PipelineOptions extends WorkflowAgentOptions {
  stages: Array<PipelineStage | Runnable>;
}

interface PreparedStage {
  name: string;
  agent: Runnable;
  transform?: PipelineStage['transform'];
  template?: CompiledTemplate;
}

/**
 * Runs stages in order, each on the previous stage's result (optionally transformed), the first
 * on the pipeline's input. The answer is the last stage's; a failing stage fails the pipeline.
 * @example
 * new Pipeline({ name: 'translate', stages: [extractor, { agent: translator, transform: 'Translate to French:\n{previous}' }] });
 */
export class Pipeline extends WorkflowAgent {
  readonly kind = 'pipeline' as const;
  private readonly stages: PreparedStage[];

  constructor(options: PipelineOptions) {
    super(options);
    if (!Array.isArray(options.stages) || options.stages.length === 0)
      throw new ValidationError(`Pipeline "${this.name}" needs stages: at least one`);
    const names = new Set<string>();
    this.stages = options.stages.map((s, i) => {
      const stage: PipelineStage = isRunnable(s) ? { agent: s } : s;
      if (!stage || !isRunnable(stage.agent)) throw new ValidationError(`Pipeline "${this.name}": stages[${i}] needs an agent`);
      const name = stage.name ?? stage.agent.name;
      if (names.has(name)) throw new ValidationError(`Pipeline "${this.name}": two stages are named "${name}"; give them distinct names`);
      names.add(name);
      const template = typeof stage.transform === 'string' ? compileTemplate(stage.transform, ['previous', 'input']) : undefined;
      return { name, agent: stage.agent, transform: stage.transform, template };
    });
  }

  get subAgents(): readonly Runnable[] {
    return [...new Set(this.stages.map((s) => s.agent))];
  }

  protected async runWorkflow(run: WorkflowRun): Promise<WorkflowOutput> {
    const subRuns: SubRunOutcome[] = [];
    let previous: string | undefined;
    let last: SubRunOutcome | undefined;
    for (let index = 0; index < this.stages.length; index++) {
      const s = this.stages[index];
      const prev = previous ?? run.inputText;
      let input: RunInput;
      if (typeof s.transform === 'function')
        input = await s.transform(prev, { input: run.inputText, stage: s.name, index, state: run.state });
      else if (s.template)
        input = renderTemplate(
          s.template,
          run.state,
          this.name,
          { previous: prev, input: run.inputText },
          `the input of stage "${s.name}"`,
        );
      else if (typeof s.transform === 'string') input = s.transform;
      else input = previous ?? run.input;
      last = await run.runPart(s.agent, input, { task: s.name, recordAs: s.name });
      subRuns.push(last);
      if (last.status !== 'completed') throw last.error;
      previous = last.text!;
    }
    return { text: last!.text!, subRuns, finishReason: last!.result!.finishReason };
  }
}

function isRunnable(v: unknown): v is Runnable {
  return typeof v === 'object' && v !== null && typeof (v as Runnable).execute === 'function' && typeof (v as Runnable).name === 'string';
}
