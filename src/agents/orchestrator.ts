import { linkAbort } from '../core/abort-link.js';
import type { Runnable } from '../core/runnable.js';
import { type CompiledTemplate, compileTemplate, renderTemplate } from '../core/template.js';
import { ValidationError } from '../errors/validation-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import type { RunInput } from '../types/message.js';
import type { SubRunOutcome } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import { positiveOrAll } from './parallel-agent.js';
import { checkTaskGraph } from './task-graph.js';
import {
  eventError,
  isFatal,
  joinSections,
  WorkflowAgent,
  type WorkflowAgentOptions,
  type WorkflowOutput,
  type WorkflowRun,
} from './workflow-agent.js';

/** What a task's `input` function receives. */
export interface TaskInputContext {
  /** The orchestrator's input as text. */
  input: string;
  /** The final text of each task this one depends on, by task id. */
  results: Record<string, string>;
  state: RunState;
}

/** One task of an orchestrator. */
export interface OrchestratorTask {
  /** Unique id; other tasks name it in `dependsOn`, templates read its result as `{output.<id>}`. */
  id: string;
  agent: Runnable;
  /**
   * The task's request. A string is a template: `{input}` (the orchestrator's input),
   * `{output.<task id>}`, `{state.x}`… A function computes it. Default: the orchestrator's input.
   * Unless the template names them, the results of the tasks it depends on are appended.
   */
  input?: string | ((context: TaskInputContext) => RunInput | Promise<RunInput>);
  /** Ids of tasks that must complete first; their results are passed to this one. */
  dependsOn?: string[];
}

/** Options for `new Orchestrator()`. */
export interface OrchestratorOptions extends WorkflowAgentOptions {
  tasks: OrchestratorTask[];
  /** At most this many tasks run at once. Default: every task that is ready. */
  maxParallel?: number;
  /**
   * Default true: the first failure cancels running tasks and fails the run. False (continue on
   * error): tasks that depend on a failed one are skipped, the rest run, and every task's outcome
   * is returned (the run fails only if no task completes).
   */
  failFast?: boolean;
}

interface PreparedTask extends OrchestratorTask {
  index: number;
  dependsOn: string[];
  template?: CompiledTemplate;
  /** The template names at least one dependency's output itself. */
  namesDependencies: boolean;
  dependents: number[];
}

/**
 * Runs tasks that form a dependency graph (a DAG, checked up front): independent tasks run in
 * parallel up to `maxParallel`, each task receives its dependencies' results, and every task's
 * outcome comes back in `result.subRuns`. The answer is the result of the tasks nothing depends on.
 * @example
 * new Orchestrator({ name: 'report', tasks: [
 *   { id: 'facts', agent: researcher },
 *   { id: 'figures', agent: analyst },
 *   { id: 'draft', agent: writer, dependsOn: ['facts', 'figures'] },
 * ] });
 */
export class Orchestrator extends WorkflowAgent {
  readonly kind = 'orchestrator' as const;
  readonly maxParallel: number;
  readonly failFast: boolean;
  private readonly tasks: PreparedTask[];

  constructor(options: OrchestratorOptions) {
    super(options);
    const tasks = options.tasks;
    if (!Array.isArray(tasks) || tasks.length === 0) throw new ValidationError(`Orchestrator "${this.name}" needs tasks: at least one`);
    const problems: string[] = [];
    tasks.forEach((t, i) => {
      if (!t || typeof t.id !== 'string' || t.id === '') problems.push(`tasks[${i}] needs an id`);
      else if (!t.agent || typeof t.agent.execute !== 'function') problems.push(`task "${t.id}" needs an agent`);
    });
    if (problems.length === 0) {
      for (const issue of checkTaskGraph(tasks)) {
        problems.push(
          issue.dependency === undefined ? issue.message : `tasks[${issue.task}].dependsOn[${issue.dependency}]: ${issue.message}`,
        );
      }
    }
    if (problems.length > 0)
      throw new ValidationError(`Orchestrator "${this.name}" has an invalid task graph:\n  ${problems.join('\n  ')}`);
    this.maxParallel = positiveOrAll(options.maxParallel, 'maxParallel', this.name);
    this.failFast = options.failFast ?? true;
    const byId = new Map(tasks.map((t, i) => [t.id, i]));
    this.tasks = tasks.map((t, index) => {
      const dependsOn = [...(t.dependsOn ?? [])];
      const template = typeof t.input === 'string' ? compileTemplate(t.input, ['input']) : undefined;
      const named = new Set((template?.placeholders ?? []).filter((p) => p.scope === 'output').map((p) => p.name));
      return { ...t, index, dependsOn, template, namesDependencies: dependsOn.some((d) => named.has(d)), dependents: [] };
    });
    for (const t of this.tasks) for (const d of t.dependsOn) this.tasks[byId.get(d)!].dependents.push(t.index);
  }

  get subAgents(): readonly Runnable[] {
    return [...new Set(this.tasks.map((t) => t.agent))];
  }

  /** The tasks, as given. */
  get taskList(): readonly OrchestratorTask[] {
    return this.tasks.map(({ id, agent, input, dependsOn }) => ({ id, agent, input, dependsOn }));
  }

  protected async runWorkflow(run: WorkflowRun): Promise<WorkflowOutput> {
    const tasks = this.tasks;
    // Aborted by the first failure (fail-fast), or with the run's own signal.
    const stop = new AbortController();
    const unlink = linkAbort(run.signal, stop);
    const signal = stop.signal;
    const outcomes = new Map<string, SubRunOutcome>();
    const finished: SubRunOutcome[] = [];
    const waiting = tasks.map((t) => t.dependsOn.length);
    const ready: number[] = [];
    for (const t of tasks) if (t.dependsOn.length === 0) ready.push(t.index);
    let active = 0;
    let firstFailure: SubRunOutcome | undefined;

    const skipDependents = (t: PreparedTask): void => {
      for (const d of t.dependents) {
        const dep = tasks[d];
        if (outcomes.has(dep.id)) continue;
        const o = run.skip(dep.id, dep.agent.name);
        outcomes.set(dep.id, o);
        finished.push(o);
        skipDependents(dep);
      }
    };

    const done = new Promise<void>((resolve) => {
      const settle = (t: PreparedTask, o: SubRunOutcome): void => {
        active--;
        outcomes.set(t.id, o);
        finished.push(o);
        if (o.status === 'completed') {
          for (const d of t.dependents) if (--waiting[d] === 0) insertSorted(ready, d);
        } else if (!(o.status === 'aborted' && stop.signal.aborted)) {
          firstFailure ??= o;
          if (this.failFast || isFatal(o)) stop.abort(o.error);
          else skipDependents(t);
        }
        launch();
      };
      const launch = (): void => {
        while (ready.length > 0 && active < this.maxParallel && !stop.signal.aborted) {
          const t = tasks[ready.shift()!];
          active++;
          // runPart reports failures as outcomes; a rejection would be a bug, but it must not hang the graph.
          this.runTask(run, t, outcomes, signal).then(
            (o) => settle(t, o),
            (err: unknown) => settle(t, { id: t.id, agent: t.agent.name, status: 'failed', error: err, durationMs: 0 }),
          );
        }
        if (active === 0) resolve();
      };
      launch();
    });
    try {
      await done;
    } finally {
      unlink();
    }
    run.throwIfAborted();
    if (firstFailure && (this.failFast || isFatal(firstFailure))) {
      for (const t of tasks) {
        if (outcomes.has(t.id)) continue;
        const o = run.skip(t.id, t.agent.name);
        outcomes.set(t.id, o);
        finished.push(o);
      }
      throw firstFailure.error;
    }
    const completed = finished.filter((o) => o.status === 'completed');
    if (completed.length === 0) {
      throw new WorkflowError({
        agent: this.name,
        kind: 'orchestrator',
        failures: finished.filter((o) => o.status === 'failed').map((o) => ({ id: o.id, error: o.error })),
      });
    }
    // The answer: the completed tasks nothing depends on (or, if all of those failed, every completed task).
    const sinks = tasks.filter((t) => t.dependents.length === 0 && outcomes.get(t.id)?.status === 'completed');
    const shown = sinks.length > 0 ? sinks : tasks.filter((t) => outcomes.get(t.id)?.status === 'completed');
    const text = joinSections(shown.map((t) => ({ id: t.id, text: outcomes.get(t.id)!.text! })));
    return { text, subRuns: finished };
  }

  private runTask(run: WorkflowRun, t: PreparedTask, outcomes: Map<string, SubRunOutcome>, signal: AbortSignal): Promise<SubRunOutcome> {
    let input: RunInput | Promise<RunInput>;
    try {
      input = this.taskInput(run, t, outcomes);
    } catch (err) {
      return Promise.resolve(this.inputFailed(run, t, err));
    }
    const part = { task: t.id, dependsOn: t.dependsOn, signal, recordAs: t.id };
    if (!(input instanceof Promise)) return run.runPart(t.agent, input, part);
    return input.then(
      (i) => run.runPart(t.agent, i, part),
      (err) => this.inputFailed(run, t, err),
    );
  }

  /** A task whose input could not be made (a template key missing, a throwing input function). */
  private inputFailed(run: WorkflowRun, t: PreparedTask, err: unknown): SubRunOutcome {
    run.emit({ type: 'task_start', workflow: 'orchestrator', task: t.id, target: t.agent.name, dependsOn: t.dependsOn });
    run.emit({
      type: 'task_end',
      workflow: 'orchestrator',
      task: t.id,
      target: t.agent.name,
      status: 'failed',
      durationMs: 0,
      error: eventError(err),
    });
    return { id: t.id, agent: t.agent.name, status: 'failed', error: err, durationMs: 0 };
  }

  /** A task's request (a promise only for input functions that return one). */
  private taskInput(run: WorkflowRun, t: PreparedTask, outcomes: Map<string, SubRunOutcome>): RunInput | Promise<RunInput> {
    if (typeof t.input === 'function') {
      const results: Record<string, string> = {};
      for (const d of t.dependsOn) results[d] = outcomes.get(d)!.text!;
      return t.input({ input: run.inputText, results, state: run.state });
    }
    let text: string;
    if (t.template) text = renderTemplate(t.template, run.state, this.name, { input: run.inputText }, `the input of task "${t.id}"`);
    else if (typeof t.input === 'string') text = t.input;
    else if (t.dependsOn.length === 0) return run.input;
    else text = run.inputText;
    if (t.dependsOn.length === 0 || t.namesDependencies) return text;
    let sections = '';
    for (const d of t.dependsOn) sections += `${sections ? '\n\n' : ''}## ${d}\n${outcomes.get(d)!.text!}`;
    return `${text}\n\nResults of the tasks this one builds on:\n\n${sections}`;
  }
}

function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && list[i - 1] > value) i--;
  list.splice(i, 0, value);
}
