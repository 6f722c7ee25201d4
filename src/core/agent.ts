import { DurableRunError } from '../errors/durable-run-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ContextProvider } from '../types/context-provider.js';
import type { CheckpointOptions, DurableDefaults, StoreSource } from '../types/durable-options.js';
import type { GuardrailOptions, ScoringOptions } from '../types/guardrail.js';
import type { Message, RunInput } from '../types/message.js';
import type { ModelInput, ModelSettings } from '../types/model.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import type { RunResult } from '../types/result.js';
import { RunState, toRunState } from '../types/run-state.js';
import type { RunSubmitter, SubmitOptions } from '../types/run-submission.js';
import type { BackgroundRun } from '../types/storage/background-runs.js';
import type { Tool } from '../types/tool.js';
import { agentAsTool, type AgentToolOptions } from './agent-tool.js';
import type { ContextBudget } from './context-budget.js';
import { Conversation } from './conversation.js';
import { resolveModelInput } from './core-services.js';
import { transferTool, transferToolName } from './handoff.js';
import { prepareGuardrails } from './run-guardrails.js';
import { type PreparedAgent, runLoop } from './run-loop.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';
import { checkDepth, type RunLimits, RunTree } from './run-tree.js';
import type { ExecuteRequest, Runnable } from './runnable.js';
import { resumeRun, resumeRunStream, startRun, startRunStream } from './start-run.js';
import { streamRun } from './stream-run.js';
import { summarizer } from './summarizer.js';
import { type CompiledTemplate, compileTemplate, renderTemplate } from './template.js';
import { toolSpec } from './tool.js';

/** Context-budget settings of an agent. */
export interface ContextOptions {
  /** Budget for system prompt + history, in estimated tokens. */
  maxTokens: number;
  /** `window` (default) drops the oldest turns; `summarize` has a model summarise them. */
  strategy?: 'window' | 'summarize';
  /** Messages at the end that are always kept. Default 4. */
  keepRecentMessages?: number;
  /** Model that writes summaries; defaults to the agent's model. */
  summaryModel?: ModelInput;
}

/** What instruction functions receive. */
export interface InstructionsContext {
  agent: string;
  /** The run's shared state (session / user / app scopes, earlier agents' outputs). */
  state: RunState;
}

/** A handoff target: an agent, or a function returning one (for agents that hand over to each other). */
export type HandoffTarget = Runnable | (() => Runnable);

/** Options for `new Agent()`. Only `name` is required; the model settings (`maxSteps`, `temperature`, …) are `ModelSettings`'. */
export interface AgentOptions extends ModelSettings {
  name: string;
  description?: string;
  /**
   * The system prompt, or a function computing it for each run. A string may use the run's state:
   * `{state.topic}`, `{user.name}`, `{app.version}`, `{output.researcher}` (another agent's final
   * answer); `{state.topic?}` is optional (empty when missing), a missing required key is a
   * `TemplateError`. `{{state.x}}` is the literal text `{state.x}`.
   */
  instructions?: string | ((context: InstructionsContext) => string | Promise<string>);
  /** `'provider:model'`, a model config, or an AI SDK model. Without one, the default-model rules apply. */
  model?: ModelInput;
  tools?: Tool[];
  /** Tool calls of one model response run at most this many at once. Default 8. */
  toolConcurrency?: number;
  /** `return` (default): tool failures go back to the model as error results; `throw`: the run fails. */
  toolErrors?: 'return' | 'throw';
  /** Default per-call time limit for tools without their own. */
  toolTimeoutMs?: number;
  /** Keep the conversation under a token budget. */
  context?: ContextOptions;
  /**
   * Sections added to the instructions at the start of each turn, computed from the turn's input
   * before its first model call — e.g. passages from a knowledge base: `[kb.asContext({ budgetTokens: 1500 })]`.
   */
  contextProviders?: ContextProvider[];
  /**
   * Agents this one can hand the conversation over to: each becomes a `transfer_to_<name>` tool.
   * When the model calls one, that agent carries on with the same conversation (and, in a
   * `Conversation`, takes the following turns) until it transfers back or onward.
   */
  handoffs?: HandoffTarget[];
  /** Also save the final answer in session state under this key (`{state.<key>}`). */
  outputKey?: string;
  /** Limits for runs this agent starts (depth, total steps, tokens, wall time); `RunOptions.limits` overrides them. */
  limits?: RunLimits;
  /**
   * Store for session runs (`run(input, { session })`), durable runs, approvals and `resume()`:
   * an open store or a function opening one (agents of a runtime get `() => runtime.store()`).
   * Runs without a session never touch it.
   */
  store?: StoreSource;
  /**
   * Where `submit()` queues background runs of this agent: agents of a runtime get
   * `() => runtime.runs`. Unset: `submit()` throws.
   */
  runs?: () => RunSubmitter;
  /** When durable runs write checkpoints (default `event`); `RunOptions.checkpoints` overrides it. */
  checkpoints?: CheckpointOptions;
  /**
   * Tools (by name) whose calls need a human's approval, with the approver's prompt (`true`: a
   * default one) — like `requireApproval` on the tool, for tools defined elsewhere (config, MCP).
   */
  requireApproval?: Record<string, string | true>;
  /**
   * Scorers checking the input (before the model sees it), each tool call (before it runs) and the
   * final answer. `block` guardrails (the default) stop the run with a `GuardrailError`; `check`
   * ones run alongside and only report. Each check emits a `guardrail` event.
   * @example
   * guardrails: { input: [regexMatch({ pattern: 'password', flags: 'i', negate: true })] }
   */
  guardrails?: GuardrailOptions;
  /** Sampled live scoring: a share of finished runs is scored afterwards, without delaying them. */
  scoring?: ScoringOptions;
}

const DEFAULT_MAX_STEPS = 10;

/**
 * An LLM agent: instructions, a model and tools, run in a loop until the model answers.
 * `run()` and `stream()` start from an empty conversation each time; use `conversation()` for
 * multi-turn chats.
 * @example
 * const agent = new Agent({ name: 'calc', instructions: 'You add numbers.', model: 'openai:gpt-4.1-mini', tools: [add] });
 * const { text } = await agent.run('add 2 and 3');
 */
export class Agent implements Runnable {
  readonly kind = 'llm' as const;
  readonly name: string;
  readonly description: string | undefined;
  readonly options: AgentOptions;
  private toolList: Tool[];
  private handoffList: HandoffTarget[];
  private loop: PreparedAgent | undefined;
  private model: Promise<ResolvedModel> | undefined;
  /** Compiled on the first run: `undefined` = not yet, `false` = no placeholders. */
  private template: CompiledTemplate | false | undefined;

  constructor(options: AgentOptions) {
    if (!options || typeof options.name !== 'string' || options.name.length === 0) {
      throw new ValidationError('An agent needs a name: new Agent({ name: "assistant", ... })');
    }
    this.name = options.name;
    this.description = options.description;
    this.options = options;
    this.toolList = options.tools ?? [];
    this.handoffList = options.handoffs ?? [];
  }

  /** The agent's tools (without the `transfer_to_*` tools of its handoffs). */
  get tools(): readonly Tool[] {
    return this.toolList;
  }

  /** The agents this one can hand the conversation over to. */
  get handoffs(): readonly Runnable[] {
    return this.handoffList.map((h) => {
      const target = typeof h === 'function' ? h() : h;
      if (!target || typeof target.execute !== 'function')
        throw new ValidationError(`Agent "${this.name}": a handoff target is not an agent`);
      return target;
    });
  }

  /** Agents reachable from this one: its handoff targets. */
  get subAgents(): readonly Runnable[] {
    return this.handoffs;
  }

  /** Adds handoff targets (e.g. the agent a specialist transfers back to). */
  addHandoffs(...targets: HandoffTarget[]): this {
    this.handoffList = [...this.handoffList, ...targets];
    this.loop = undefined;
    return this;
  }

  /** Adds tools (e.g. code-defined tools to an agent loaded from YAML). A name already present is an error. */
  addTools(...tools: Tool[]): this {
    this.toolList = [...this.toolList, ...tools];
    this.loop = undefined;
    this.prepare();
    return this;
  }

  /** Removes a tool by name; returns whether it was there. */
  removeTool(name: string): boolean {
    const before = this.toolList.length;
    this.toolList = this.toolList.filter((t) => t.name !== name);
    this.loop = undefined;
    return this.toolList.length !== before;
  }

  /** Replaces the model (takes effect on the next run). */
  setModel(model: ModelInput): this {
    this.options.model = model;
    this.model = undefined;
    return this;
  }

  /** Resolves (once) and returns the model this agent calls. */
  resolveModel(): Promise<ResolvedModel> {
    if (!this.model) {
      this.model = resolveModelInput(this.options.model, `agent "${this.name}"`);
      this.model.catch(() => (this.model = undefined));
    }
    return this.model;
  }

  /**
   * Runs the agent on a fresh conversation and resolves with the answer, steps, usage and messages.
   * With `{ session }` the conversation is the stored session's (see `RunOptions.session`); a run
   * that waits for approvals resolves with `status: 'paused'`.
   */
  run(input: RunInput, options?: RunOptions): Promise<RunResult> {
    return startRun(this, input, { options, defaults: this.durableDefaults() });
  }

  /** Like `run()`, streaming events (text deltas included) as they happen. */
  stream(input: RunInput, options?: RunOptions): RunStream {
    return startRunStream(this, input, { options, defaults: this.durableDefaults() });
  }

  /**
   * Continues an interrupted or paused durable run of this agent from its last checkpoint, with
   * the same run id. Tool calls that had finished are not run again; answered approvals take effect.
   * @throws DurableRunError `not_found` for an unknown run id.
   */
  resume(runId: string, options?: ResumeOptions): Promise<RunResult> {
    return resumeRun(this, runId, { options, defaults: this.durableDefaults() });
  }

  /** Like `resume()`, streaming the events (starting with `run_start` with `resumed: true`). */
  resumeStream(runId: string, options?: ResumeOptions): RunStream {
    return resumeRunStream(this, runId, { options, defaults: this.durableDefaults() });
  }

  /**
   * Submits a background run of this agent to its runtime's queue (`runtime.runs.submit(name,
   * input, options)`) and resolves at once with the `queued` run record: a worker (`corvid serve`,
   * `corvid worker`, `runtime.runs.work()`) runs it; follow it with `runtime.runs.stream(runId,
   * { after })`, wait for it with `runtime.runs.wait(runId)`.
   * @throws DurableRunError `invalid` for an agent that is not a runtime's (`new Agent(…)` without
   * the `runs` option): it has no queue to submit to.
   * @example
   * const run = await runtime.agent('helper').submit('Summarise the report');
   * for await (const e of runtime.runs.stream(run.runId, { after: 0 })) console.log(e.seq, e.type);
   */
  async submit(input: string, options?: SubmitOptions): Promise<BackgroundRun> {
    const runs = this.options.runs;
    if (!runs) {
      throw new DurableRunError(
        `Agent "${this.name}" has no queue for background runs: submit() needs an agent of a loaded runtime ` +
          `(loadRuntime(), then runtime.agent('${this.name}').submit(…)) or the agent option \`runs\``,
        { kind: 'invalid' },
      );
    }
    return runs().submit(this.name, input, options);
  }

  /** The store and checkpoint settings of this agent's durable runs. */
  private durableDefaults(): DurableDefaults {
    return { store: this.options.store, checkpoints: this.options.checkpoints };
  }

  /** A multi-turn conversation with this agent; history is kept across its `run` calls. */
  conversation(): Conversation {
    return new Conversation(this);
  }

  /**
   * This agent as a tool named `ask_<name>` that another agent can call; each call starts a fresh
   * conversation, or continues one per calling conversation with `{ persistent: true }`.
   */
  asTool(options?: AgentToolOptions): Tool<{ message: string }, string> {
    return agentAsTool(this, options);
  }

  /** @internal Runs on the given history (mutated on success). */
  async execute({ history, input, options, stream = false, parent }: ExecuteRequest): Promise<RunResult> {
    const loop = this.loop ?? this.prepare();
    let tree = parent?.tree;
    let signal = options?.signal;
    let owner = false;
    let state = parent?.state;
    if (parent !== undefined) checkDepth(parent.path, tree, this.name);
    else {
      if (options?.state !== undefined) state = toRunState(options.state);
      const limits = options?.limits ?? this.options.limits;
      if (limits !== undefined) {
        tree = new RunTree(limits, this.name, signal);
        signal = tree.signal;
        owner = true;
      }
    }
    try {
      const model = await this.resolveModel();
      const instructions = this.options.instructions;
      let system: string | undefined;
      if (this.template === undefined) {
        this.template = typeof instructions === 'string' && instructions.includes('{') ? (compileTemplate(instructions) ?? false) : false;
      }
      if (this.template) system = renderTemplate(this.template, (state ??= new RunState()), this.name);
      else if (typeof instructions === 'function') system = await instructions({ agent: this.name, state: (state ??= new RunState()) });
      else system = instructions;
      const journal = options?.journal ?? parent?.journal;
      const result = runLoop({ agent: loop, model, system, history, input, options, signal, stream, parent, state, tree, journal });
      // Without limits nothing needs cleaning up: hand the loop's promise straight back.
      if (!owner) return result;
      return await result;
    } finally {
      if (owner) tree!.dispose();
    }
  }

  /** @internal Streams a run on the given history. */
  streamOn(history: Message[], input: RunInput, options?: RunOptions): RunStream {
    return streamRun(this, history, input, options);
  }

  private prepare(): PreparedAgent {
    const tools = new Map<string, Tool>();
    let toolList = this.toolList;
    const approvals = this.options.requireApproval;
    if (approvals !== undefined) {
      toolList = toolList.map((t) => (Object.hasOwn(approvals, t.name) ? { ...t, requireApproval: approvals[t.name] } : t));
    }
    for (const t of toolList) {
      if (tools.has(t.name)) throw new ValidationError(`Agent "${this.name}" has two tools named "${t.name}"`);
      tools.set(t.name, t);
    }
    let handoffs: Map<string, Runnable> | undefined;
    if (this.handoffList.length > 0) {
      handoffs = new Map();
      toolList = [...toolList];
      for (const target of this.handoffs) {
        const name = transferToolName(target.name);
        if (tools.has(name)) {
          throw new ValidationError(
            `Agent "${this.name}" has two tools named "${name}" (a handoff to "${target.name}" and ${handoffs.has(name) ? 'another handoff' : 'a tool'})`,
          );
        }
        const t = transferTool(target);
        tools.set(name, t);
        toolList.push(t);
        handoffs.set(name, target);
      }
    }
    const o = this.options;
    const context: ContextBudget | undefined = o.context
      ? {
          maxTokens: o.context.maxTokens,
          strategy: o.context.strategy ?? 'window',
          keepRecentMessages: o.context.keepRecentMessages,
          summarize: summarizer(() => (o.context?.summaryModel ? resolveModelInput(o.context.summaryModel) : this.resolveModel())),
        }
      : undefined;
    this.loop = {
      name: this.name,
      tools,
      toolSpecs: toolList.map(toolSpec),
      maxSteps: o.maxSteps ?? DEFAULT_MAX_STEPS,
      toolConcurrency: o.toolConcurrency ?? 8,
      toolErrors: o.toolErrors ?? 'return',
      toolTimeoutMs: o.toolTimeoutMs,
      temperature: o.temperature,
      maxTokens: o.maxTokens,
      topP: o.topP,
      reasoning: o.reasoning,
      toolChoice: o.toolChoice,
      context,
      handoffs,
      contextProviders: o.contextProviders?.length ? o.contextProviders : undefined,
      outputKey: o.outputKey,
    };
    const guardrails = prepareGuardrails(o.guardrails);
    if (guardrails !== undefined) this.loop.guardrails = guardrails;
    if (o.scoring !== undefined && o.scoring.scorers.length > 0) this.loop.scoring = o.scoring;
    return this.loop;
  }
}
