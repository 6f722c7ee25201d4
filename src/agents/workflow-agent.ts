import { agentAsTool, type AgentToolOptions } from '../core/agent-tool.js';
import { Conversation } from '../core/conversation.js';
import { mergeUsage, newRunId } from '../core/run-loop.js';
import type { LoopControl, RunOptions } from '../core/run-options.js';
import type { RunStream } from '../core/run-stream.js';
import { abortedError, checkDepth, type RunLimits, RunTree } from '../core/run-tree.js';
import type { AgentKind, ExecuteRequest, Runnable } from '../core/runnable.js';
import { startRun, startRunStream } from '../core/start-run.js';
import { CorvidError } from '../errors/corvid-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { StoreSource } from '../types/durable-options.js';
import type { AgentEvent, EventError, EventSink, WorkflowKind } from '../types/events.js';
import { type Message, messageText, type RunInput, userMessage } from '../types/message.js';
import type { FinishReason, RunResult, SubRunOutcome, WorkflowInfo } from '../types/result.js';
import { RunState, toRunState } from '../types/run-state.js';
import type { Tool } from '../types/tool.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';

/** Options every workflow agent takes. */
export interface WorkflowAgentOptions {
  name: string;
  /** What it does; shown to other agents when it is used as a tool. */
  description?: string;
  /** Also save the final answer in session state under this key (`{state.<key>}`). */
  outputKey?: string;
  /** Limits for runs this agent starts at the top (depth, total steps, tokens, wall time). */
  limits?: RunLimits;
  /** Store for session runs (`run(input, { session })`); `RunOptions.store` overrides it. */
  store?: StoreSource;
}

/** What a workflow's own logic returns. */
export interface WorkflowOutput {
  text: string;
  subRuns: SubRunOutcome[];
  finishReason?: FinishReason;
  info?: Omit<WorkflowInfo, 'kind'>;
}

/** How `WorkflowRun.runPart` runs one part. */
export interface PartOptions {
  /** Id in events and results; default the agent's name. */
  task?: string;
  iteration?: number;
  dependsOn?: readonly string[];
  /** Signal for this part (e.g. one a parallel branch shares with its siblings). */
  signal?: AbortSignal;
  /** The loop control to give the part (loop agents). */
  loop?: LoopControl;
  /** Also record the part's text under `task` in `state.outputs`. */
  recordAs?: string;
}

/** Describes an error for events. */
export function eventError(error: unknown): EventError {
  if (CorvidError.isInstance(error)) return { name: error.name, code: error.code, message: error.message };
  const e = error as { name?: string; message?: string } | undefined;
  return { name: e?.name ?? 'Error', code: 'internal', message: e?.message ?? String(error) };
}

/** True when an outcome must stop the whole workflow whatever its failure policy: a limit or cancellation. */
export function isFatal(outcome: SubRunOutcome): boolean {
  if (outcome.status === 'aborted') return true;
  const e = outcome.error;
  return CorvidError.isInstance(e) && (e.code === 'limit_exceeded' || e.code === 'template_key_missing');
}

/**
 * One run of a workflow agent: its place in the tree, its events, and `runPart`, which runs a
 * sub-agent on a copy of the conversation so far, with task events, usage and outputs accounted.
 */
export class WorkflowRun {
  readonly input: RunInput;
  /** The input as text (the last user message's text for message input). */
  readonly inputText: string;
  readonly path: readonly string[];
  readonly signal: AbortSignal | undefined;
  readonly state: RunState;
  readonly tree: RunTree | undefined;
  readonly runId: string;
  readonly usage: Usage = emptyUsage();
  nestedUsage: Record<string, Usage> | undefined;
  readonly sink: EventSink | undefined;
  private readonly base: { runId: string; agent: string; path: readonly string[] } | undefined;

  constructor(
    readonly agent: WorkflowAgent,
    readonly history: readonly Message[],
    input: RunInput,
    readonly stream: boolean,
    opts: {
      path: readonly string[];
      signal: AbortSignal | undefined;
      state: RunState;
      tree: RunTree | undefined;
      sink: EventSink | undefined;
      loop?: LoopControl;
    },
  ) {
    this.input = input;
    // A handoff target gets no new input: the request is the conversation's last user message.
    this.inputText = typeof input !== 'string' && input.length === 0 ? textOf(history as Message[]) : textOf(input);
    this.path = opts.path;
    this.signal = opts.signal;
    this.state = opts.state;
    this.tree = opts.tree;
    this.sink = opts.sink;
    this.loop = opts.loop;
    this.runId = newRunId();
    this.base = opts.sink ? { runId: this.runId, agent: agent.name, path: opts.path } : undefined;
  }

  /** The enclosing loop (passed on to parts, so `exit_loop` deep inside still ends it). */
  readonly loop: LoopControl | undefined;

  /** Emits an event at this workflow's path. */
  emit(event: DistributiveOmit<AgentEvent, 'runId' | 'agent' | 'path'>): void {
    if (this.sink) this.sink({ ...this.base!, ...event } as AgentEvent);
  }

  /** Adds a part's usage to this run's. */
  readonly reportUsage = (u: Usage, byAgent?: Record<string, Usage>): void => {
    addUsage(this.usage, u);
    if (byAgent) this.nestedUsage = mergeUsage(this.nestedUsage ?? {}, byAgent);
  };

  /**
   * Runs `agent` on `input` as one part of this workflow. Never throws: failures come back as
   * the outcome (`failed`, or `aborted` when cancelled), so each workflow applies its own policy.
   */
  async runPart(agent: Runnable, input: RunInput, options: PartOptions = {}): Promise<SubRunOutcome> {
    const task = options.task ?? agent.name;
    const workflow = this.agent.kind as WorkflowKind;
    const started = performance.now();
    const signal = options.signal ?? this.signal;
    if (this.sink) {
      const start: AgentEvent = { ...this.base!, type: 'task_start', workflow, task, target: agent.name };
      if (options.iteration !== undefined) start.iteration = options.iteration;
      if (options.dependsOn !== undefined) start.dependsOn = options.dependsOn;
      this.sink(start);
    }
    const outcome: SubRunOutcome = { id: task, agent: agent.name, status: 'completed', durationMs: 0 };
    if (options.iteration !== undefined) outcome.iteration = options.iteration;
    try {
      if (signal?.aborted) throw new RunAbortedError();
      const result = await agent.execute({
        history: this.history.slice(),
        input,
        options: { signal },
        stream: this.stream,
        parent: {
          path: [...this.path, agent.name],
          sink: this.sink,
          reportUsage: this.reportUsage,
          state: this.state,
          tree: this.tree,
          loop: options.loop ?? this.loop,
        },
      });
      outcome.result = result;
      outcome.text = result.text;
      if (options.recordAs !== undefined) this.state.outputs.set(options.recordAs, result.text);
    } catch (err) {
      const error = signal?.aborted ? abortedError(signal, err) : err;
      outcome.status = error instanceof RunAbortedError ? 'aborted' : 'failed';
      outcome.error = error;
    }
    outcome.durationMs = performance.now() - started;
    if (this.sink) {
      const end: AgentEvent = {
        ...this.base!,
        type: 'task_end',
        workflow,
        task,
        target: agent.name,
        status: outcome.status,
        durationMs: outcome.durationMs,
      };
      if (options.iteration !== undefined) end.iteration = options.iteration;
      if (outcome.error !== undefined) end.error = eventError(outcome.error);
      this.sink(end);
    }
    return outcome;
  }

  /** Reports a part that never ran. */
  skip(id: string, agent: string): SubRunOutcome {
    this.emit({ type: 'task_end', workflow: this.agent.kind as WorkflowKind, task: id, target: agent, status: 'skipped', durationMs: 0 });
    return { id, agent, status: 'skipped', durationMs: 0 };
  }

  /** Throws the error that stops the run when it was cancelled or a limit was hit. */
  throwIfAborted(): void {
    if (this.signal?.aborted) throw abortedError(this.signal, undefined);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The text of an input: the string, or the last user message's text. */
export function textOf(input: RunInput): string {
  if (typeof input === 'string') return input;
  for (let i = input.length - 1; i >= 0; i--) if (input[i].role === 'user') return messageText(input[i]);
  return input.length > 0 ? messageText(input[input.length - 1]) : '';
}

/**
 * Base of the workflow agents: runs parts (sub-agents) by its own logic and reports the whole as
 * one run — `run_start`, a `task_start` / `task_end` around each part with the parts' own events
 * nested inside, then `answer` (top level) and `run_end`. The conversation gets the input and the
 * final answer; each part works on a copy of the conversation so far and shares the run's state.
 */
export abstract class WorkflowAgent implements Runnable {
  abstract readonly kind: Exclude<AgentKind, 'llm' | 'remote'>;
  readonly name: string;
  readonly description: string | undefined;
  readonly outputKey: string | undefined;
  readonly limits: RunLimits | undefined;
  /** Store for session runs. */
  store: StoreSource | undefined;

  constructor(options: WorkflowAgentOptions) {
    if (!options || typeof options.name !== 'string' || options.name.length === 0) {
      throw new ValidationError(`A workflow agent needs a name: new ${new.target.name}({ name: "team", ... })`);
    }
    this.name = options.name;
    this.description = options.description;
    this.outputKey = options.outputKey;
    this.limits = options.limits;
    this.store = options.store;
  }

  /** The agents this workflow runs. */
  abstract get subAgents(): readonly Runnable[];

  /** Runs the workflow; with `{ session }` on the stored session (its input and answer are appended). */
  run(input: RunInput, options?: RunOptions): Promise<RunResult> {
    return startRun(this, input, { options, defaults: { store: this.store } });
  }

  stream(input: RunInput, options?: RunOptions): RunStream {
    return startRunStream(this, input, { options, defaults: { store: this.store } });
  }

  conversation(): Conversation {
    return new Conversation(this);
  }

  asTool(options?: AgentToolOptions): Tool<{ message: string }, string> {
    return agentAsTool(this, options);
  }

  /** The workflow's logic. */
  protected abstract runWorkflow(run: WorkflowRun): Promise<WorkflowOutput>;

  /** @internal */
  async execute({ history, input, options, stream = false, parent }: ExecuteRequest): Promise<RunResult> {
    const started = performance.now();
    const path = parent ? parent.path : [this.name];
    let tree = parent?.tree;
    let signal = options?.signal;
    let owner = false;
    if (parent !== undefined) checkDepth(path, tree, this.name);
    else {
      const limits = options?.limits ?? this.limits;
      if (limits !== undefined) {
        tree = new RunTree(limits, this.name, signal);
        signal = tree.signal;
        owner = true;
      }
    }
    const state = parent?.state ?? toRunState(options?.state) ?? new RunState();
    const userSink = options?.onEvent;
    const parentSink = parent?.sink;
    const sink: EventSink | undefined = userSink && parentSink ? (e) => (parentSink(e), userSink(e)) : (userSink ?? parentSink);
    const run = new WorkflowRun(this, history, input, stream, { path, signal, state, tree, sink, loop: parent?.loop });
    run.emit({ type: 'run_start', input: run.inputText });
    let subRuns: SubRunOutcome[] = [];
    try {
      const out = await this.runWorkflow(run);
      subRuns = out.subRuns;
      const inputMessages = typeof input === 'string' ? [userMessage(input)] : input;
      const answer: Message = { role: 'assistant', content: [{ type: 'text', text: out.text }] };
      const messages = [...inputMessages, answer];
      for (const m of messages) history.push(m);
      state.outputs.set(this.name, out.text);
      if (this.outputKey !== undefined) state.session.set(this.outputKey, out.text);
      const byAgent = run.nestedUsage ?? {};
      if (parent === undefined) run.emit({ type: 'answer', text: out.text });
      run.emit({ type: 'run_end', status: 'completed', steps: subRuns.length, usage: run.usage, durationMs: performance.now() - started });
      parent?.reportUsage?.(run.usage, byAgent);
      return {
        runId: run.runId,
        agent: this.name,
        text: out.text,
        steps: [],
        usage: run.usage,
        usageByAgent: byAgent,
        messages,
        finishReason: out.finishReason ?? 'stop',
        durationMs: performance.now() - started,
        subRuns,
        workflow: { kind: this.kind, ...out.info },
      };
    } catch (err) {
      const error = signal?.aborted ? abortedError(signal, err) : err;
      run.emit({ type: 'error', error: eventError(error) });
      run.emit({
        type: 'run_end',
        status: error instanceof RunAbortedError ? 'aborted' : 'failed',
        steps: subRuns.length,
        usage: run.usage,
        durationMs: performance.now() - started,
      });
      parent?.reportUsage?.(run.usage, run.nestedUsage ?? {});
      throw error;
    } finally {
      if (owner) tree!.dispose();
    }
  }
}

/** Checks the sub-agent list of a workflow agent. */
export function checkSubAgents(kind: string, name: string, subAgents: readonly Runnable[] | undefined): Runnable[] {
  if (!Array.isArray(subAgents) || subAgents.length === 0) {
    throw new ValidationError(`The ${kind} agent "${name}" needs subAgents: at least one agent to run`);
  }
  subAgents.forEach((a, i) => {
    if (!a || typeof a.execute !== 'function') throw new ValidationError(`The ${kind} agent "${name}": subAgents[${i}] is not an agent`);
  });
  return [...subAgents];
}

/** Joins part results as `## id` sections (for workflows whose answer is several parts). */
export function joinSections(parts: ReadonlyArray<{ id: string; text: string }>): string {
  if (parts.length === 1) return parts[0].text;
  return parts.map((p) => `## ${p.id}\n${p.text}`).join('\n\n');
}
