import { ValidationError } from '../errors/validation-error.js';
import type { Message, RunInput } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import { RunState } from '../types/run-state.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import { mergeUsage } from './run-loop.js';
import type { RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';
import { findAgent, type Runnable } from './runnable.js';
import { streamRun } from './stream-run.js';

/** Options for `new Conversation()`. */
export interface ConversationOptions {
  /** State to start from (e.g. loaded from a session store, or with shared user / app scopes). */
  state?: RunState;
  /** The agent that takes the next turn (a name reachable from the conversation's agent). */
  activeAgent?: string;
}

/**
 * A multi-turn conversation with an agent (any `Runnable`). Each `run`/`stream` sees the earlier
 * turns; a failed or cancelled run leaves the history as it was. One run at a time.
 *
 * With handoffs, the agent that took over answers the following turns too: `activeAgent` names it
 * (a plain string, so it can be saved with the session and restored).
 */
export class Conversation {
  /** The agent the conversation was started with. */
  readonly agent: Runnable;
  /** The history (without the system prompt). */
  messages: Message[] = [];
  /** Usage summed over every run of this conversation. */
  readonly usage: Usage = emptyUsage();
  /** The same usage per agent name. */
  readonly usageByAgent: Record<string, Usage> = {};
  /** Session / user / app state and agent outputs, kept across turns. */
  readonly state: RunState;
  /** Name of the agent that takes the next turn: `agent.name` until a handoff passes control on. */
  activeAgent: string;
  private busy = false;

  constructor(agent: Runnable, messages?: Message[], options: ConversationOptions = {}) {
    this.agent = agent;
    if (messages) this.messages = messages;
    this.state = options.state ?? new RunState();
    this.activeAgent = options.activeAgent ?? agent.name;
  }

  /** The agent that takes the next turn (the conversation's agent when `activeAgent` is not found). */
  get current(): Runnable {
    if (this.activeAgent === this.agent.name) return this.agent;
    return findAgent(this.agent, this.activeAgent) ?? this.agent;
  }

  /** Runs one turn. */
  async run(input: RunInput, options?: RunOptions): Promise<RunResult> {
    this.enter();
    try {
      const runner = this.current;
      const result = await runner.execute({ history: this.messages, input, options: this.runOptions(options) });
      this.finish(result, runner);
      return result;
    } finally {
      this.busy = false;
    }
  }

  /** Runs one turn, streaming its events. */
  stream(input: RunInput, options?: RunOptions): RunStream {
    this.enter();
    let s: RunStream;
    let runner: Runnable;
    try {
      runner = this.current;
      s = streamRun(runner, this.messages, input, this.runOptions(options));
    } catch (err) {
      this.busy = false;
      throw err;
    }
    s.result.then(
      (r) => {
        this.finish(r, runner);
        this.busy = false;
      },
      () => (this.busy = false),
    );
    return s;
  }

  /** Forgets the history, the usage, the session state and outputs, and returns to the first agent. */
  reset(): void {
    this.messages = [];
    Object.assign(this.usage, emptyUsage());
    for (const k of Object.keys(this.usageByAgent)) delete this.usageByAgent[k];
    this.state.resetSession();
    this.activeAgent = this.agent.name;
  }

  private runOptions(options: RunOptions | undefined): RunOptions {
    const given = options?.state;
    if (given === undefined || given instanceof RunState) return { ...options, state: given ?? this.state };
    for (const [k, v] of Object.entries(given)) this.state.session.set(k, v);
    return { ...options, state: this.state };
  }

  private finish(result: RunResult, runner: Runnable): void {
    addUsage(this.usage, result.usage);
    mergeUsage(this.usageByAgent, result.usageByAgent);
    this.activeAgent = result.activeAgent ?? runner.name;
  }

  private enter(): void {
    if (this.busy) throw new ValidationError(`A run is already in progress in this conversation with "${this.agent.name}"`);
    this.busy = true;
  }
}
