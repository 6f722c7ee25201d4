import type { Message, RunInput } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import type { Tool } from '../types/tool.js';
import type { AgentToolOptions } from './agent-tool.js';
import type { Conversation } from './conversation.js';
import type { ParentLink, RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';

/** What kind of agent a `Runnable` is (the `type` of a config entry); `remote`: an A2A agent elsewhere. */
export type AgentKind = 'llm' | 'sequential' | 'parallel' | 'loop' | 'orchestrator' | 'pipeline' | 'router' | 'remote';

/**
 * Anything that runs like an agent: an LLM `Agent` and every workflow agent (`SequentialAgent`,
 * `ParallelAgent`, `LoopAgent`, `Orchestrator`, `Pipeline`, `Router`). Conversations, agent
 * tools, handoffs, workflows, the config runtime and the CLI accept any of them.
 */
export interface Runnable {
  readonly name: string;
  readonly description: string | undefined;
  readonly kind: AgentKind;
  /** Runs on a fresh conversation. */
  run(input: RunInput, options?: RunOptions): Promise<RunResult>;
  /** Like `run()`, streaming the events of the whole run tree. */
  stream(input: RunInput, options?: RunOptions): RunStream;
  /** A multi-turn conversation with this agent. */
  conversation(): Conversation;
  /** This agent as a tool (`ask_<name>`) another agent can call. */
  asTool(options?: AgentToolOptions): Tool<{ message: string }, string>;
  /** Agents this one runs or hands over to (for lookups such as a conversation's active agent). */
  readonly subAgents: readonly Runnable[];
  /**
   * @internal Runs on `request.history` (appended to on success, left as it was on failure),
   * attached to `request.parent` when nested in another run.
   */
  execute(request: ExecuteRequest): Promise<RunResult>;
}

/** @internal What `Runnable.execute` runs. */
export interface ExecuteRequest {
  /** The conversation so far; the run appends to it when it succeeds. */
  history: Message[];
  input: RunInput;
  options?: RunOptions;
  /** Stream text deltas as events. Default false. */
  stream?: boolean;
  /** Set when the run is nested in another (agent tool, handoff, workflow step). */
  parent?: ParentLink;
}

/**
 * Finds an agent by name among `root` and the agents reachable from it through handoffs and
 * sub-agents (breadth first, so the nearest wins).
 */
export function findAgent(root: Runnable, name: string): Runnable | undefined {
  if (root.name === name) return root;
  const seen = new Set<Runnable>([root]);
  const queue: Runnable[] = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const next of queue[i].subAgents) {
      if (seen.has(next)) continue;
      if (next.name === name) return next;
      seen.add(next);
      queue.push(next);
    }
  }
  return undefined;
}
