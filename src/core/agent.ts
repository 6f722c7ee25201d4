import { ValidationError } from '../errors/validation-error.js';
import type { ResolvedModel } from '../models/resolved-model.js';
import { resolveModel } from '../models/resolve-model.js';
import type { Message, RunInput } from '../types/message.js';
import type { EventSink } from '../types/events.js';
import { emptyUsage } from '../types/usage.js';
import type { ModelInput, ReasoningSettings, ToolChoice } from '../types/model.js';
import type { RunResult } from '../types/result.js';
import type { Tool } from '../types/tool.js';
import { agentAsTool, type AgentToolOptions } from './agent-tool.js';
import type { ContextBudget } from './context-budget.js';
import { Conversation } from './conversation.js';
import { EventQueue } from './event-queue.js';
import { runLoop, type LoopAgent } from './run-loop.js';
import type { ParentLink, RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';
import { toolSpec } from './tool.js';
import { summarizer } from './summarizer.js';

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
}

/** Options for `new Agent()`. Only `name` is required. */
export interface AgentOptions {
  name: string;
  description?: string;
  /** The system prompt, or a function computing it for each run. */
  instructions?: string | ((context: InstructionsContext) => string | Promise<string>);
  /** `'provider:model'`, a model config, or an AI SDK model. Without one, the default-model rules apply. */
  model?: ModelInput;
  tools?: Tool[];
  /** Model calls allowed per run before MaxStepsExceededError. Default 10. */
  maxSteps?: number;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  toolChoice?: ToolChoice;
  /** Tool calls of one model response run at most this many at once. Default 8. */
  toolConcurrency?: number;
  /** `return` (default): tool failures go back to the model as error results; `throw`: the run fails. */
  toolErrors?: 'return' | 'throw';
  /** Default per-call time limit for tools without their own. */
  toolTimeoutMs?: number;
  /** Keep the conversation under a token budget. */
  context?: ContextOptions;
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
export class Agent {
  readonly name: string;
  readonly description: string | undefined;
  readonly options: AgentOptions;
  private toolList: Tool[];
  private loop: LoopAgent | undefined;
  private model: Promise<ResolvedModel> | undefined;

  constructor(options: AgentOptions) {
    if (!options || typeof options.name !== 'string' || options.name.length === 0) {
      throw new ValidationError('An agent needs a name: new Agent({ name: "assistant", ... })');
    }
    this.name = options.name;
    this.description = options.description;
    this.options = options;
    this.toolList = options.tools ?? [];
  }

  /** The agent's tools. */
  get tools(): readonly Tool[] {
    return this.toolList;
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
      this.model = resolveModel(this.options.model, `agent "${this.name}"`);
      this.model.catch(() => (this.model = undefined));
    }
    return this.model;
  }

  /** Runs the agent on a fresh conversation and resolves with the answer, steps, usage and messages. */
  run(input: RunInput, options?: RunOptions): Promise<RunResult> {
    return this.execute([], input, options, false);
  }

  /** Like `run()`, streaming events (text deltas included) as they happen. */
  stream(input: RunInput, options?: RunOptions): RunStream {
    return this.streamOn([], input, options);
  }

  /** A multi-turn conversation with this agent; history is kept across its `run` calls. */
  conversation(): Conversation {
    return new Conversation(this);
  }

  /** This agent as a tool named `ask_<name>` that another agent can call; each call starts a fresh conversation. */
  asTool(options?: AgentToolOptions): Tool<{ message: string }, string> {
    return agentAsTool(this, options);
  }

  /** @internal Runs on the given history (mutated on success). */
  async execute(
    history: Message[],
    input: RunInput,
    options: RunOptions | undefined,
    stream: boolean,
    parent?: ParentLink,
  ): Promise<RunResult> {
    const loop = this.loop ?? this.prepare();
    const model = await this.resolveModel();
    const instructions = this.options.instructions;
    const system = typeof instructions === 'function' ? await instructions({ agent: this.name }) : instructions;
    return runLoop({ agent: loop, model, system, history, input, options, stream, parent });
  }

  /** @internal Streams a run on the given history. */
  streamOn(history: Message[], input: RunInput, options?: RunOptions): RunStream {
    const queue = new EventQueue();
    const controller = new AbortController();
    const signal = options?.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const userSink = options?.onEvent;
    let started = false;
    const onEvent: EventSink = (e) => {
      if (e.type === 'run_start') started = true;
      queue.push(e);
      if (userSink) userSink(e);
    };
    const result = this.execute(history, input, { ...options, signal, onEvent }, true);
    result.then(
      () => queue.close(),
      (err: { name?: string; code?: string; message?: string }) => {
        // A failure before the loop started (no model, bad tools) still ends the stream with error + run_end.
        if (!started) {
          const base = { runId: '', agent: this.name, path: [this.name] };
          queue.push({ ...base, type: 'error', error: { name: err?.name ?? 'Error', code: err?.code ?? 'internal', message: err?.message ?? String(err) } });
          queue.push({ ...base, type: 'run_end', status: 'failed', steps: 0, usage: emptyUsage(), durationMs: 0 });
        }
        queue.close();
      },
    );
    return {
      result,
      abort: (reason?: unknown) => controller.abort(reason),
      [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    };
  }

  private prepare(): LoopAgent {
    const tools = new Map<string, Tool>();
    for (const t of this.toolList) {
      if (tools.has(t.name)) throw new ValidationError(`Agent "${this.name}" has two tools named "${t.name}"`);
      tools.set(t.name, t);
    }
    const o = this.options;
    const context: ContextBudget | undefined = o.context
      ? {
          maxTokens: o.context.maxTokens,
          strategy: o.context.strategy ?? 'window',
          keepRecentMessages: o.context.keepRecentMessages,
          summarize: summarizer(() => (o.context?.summaryModel ? resolveModel(o.context.summaryModel) : this.resolveModel())),
        }
      : undefined;
    this.loop = {
      name: this.name,
      tools,
      toolSpecs: this.toolList.map(toolSpec),
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
    };
    return this.loop;
  }
}
