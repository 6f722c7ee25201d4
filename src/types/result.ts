import type { Message } from './message.js';
import type { Usage } from './usage.js';

/** Why a model step ended (the provider's unified reason). */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** One tool call the model made. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The outcome of one tool call. */
export interface ToolResultRecord {
  toolCallId: string;
  toolName: string;
  /** The tool's return value, or the error message when `isError`. */
  output: unknown;
  isError: boolean;
  durationMs: number;
}

/** One model step: one model call and the tool calls it asked for. */
export interface StepResult {
  step: number;
  text: string;
  reasoning: string;
  toolCalls: ToolCallRecord[];
  toolResults: ToolResultRecord[];
  finishReason: FinishReason;
  usage: Usage;
}

/** How one part of a workflow agent (a sub-agent run, task, stage or route) went. */
export interface SubRunOutcome {
  /** Task id (orchestrator), stage name (pipeline), route name (router), else the sub-agent's name. */
  id: string;
  /** The agent that ran it. */
  agent: string;
  status: 'completed' | 'failed' | 'aborted' | 'skipped';
  /** The final text, when completed. */
  text?: string;
  /** The full result, when completed. */
  result?: RunResult;
  /** What it failed with. */
  error?: unknown;
  /** Loop agents: the iteration, from 1. */
  iteration?: number;
  durationMs: number;
}

/** What a workflow agent reports about its run besides the parts. */
export interface WorkflowInfo {
  kind: 'sequential' | 'parallel' | 'loop' | 'orchestrator' | 'pipeline' | 'router';
  /** Loop agents: iterations started. */
  iterations?: number;
  /** Loop agents: why the loop ended. */
  exitReason?: 'exit_loop' | 'condition' | 'max_iterations';
  /** Routers: the route taken. */
  route?: string;
}

/** A tool call waiting for a human's decision (see `RunResult.pendingApprovals`). */
export interface PendingApproval {
  /** Id in `store.approvals`. */
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  prompt: string;
}

/**
 * The question a run ended its turn with (the model called `ask_user`): the turn is over, and
 * the user's answer is the next message of the conversation.
 */
export interface InputRequest {
  /** The question for the user (also the run's `text`). */
  question: string;
  /** The `ask_user` call that asked it. */
  toolCallId: string;
}

/** What `agent.run()` resolves to. */
export interface RunResult {
  runId: string;
  agent: string;
  /** The final answer. */
  text: string;
  steps: StepResult[];
  /** Token usage summed over the run's steps (nested agent runs included). */
  usage: Usage;
  /** The same usage per agent name: each agent's own model calls, wherever it ran in the tree. */
  usageByAgent: Record<string, Usage>;
  /** Messages this run added to the conversation (user input, assistant, tool). */
  messages: Message[];
  finishReason: FinishReason;
  durationMs: number;
  /**
   * Set when control passed to another agent through a handoff: the agent that gave the final
   * answer, and that takes the next turn of a conversation.
   */
  activeAgent?: string;
  /** Workflow agents: every part, in the order they finished (orchestrators: every task). */
  subRuns?: SubRunOutcome[];
  /** Workflow agents: kind, loop iterations and exit reason, router route. */
  workflow?: WorkflowInfo;
  /**
   * `paused`: a durable run stopped to wait for approvals (`pendingApprovals`); `text` is empty.
   * Answer them and call `agent.resume(runId)`. Absent or `completed` otherwise.
   */
  status?: 'completed' | 'paused';
  /** The approvals a paused run waits for. */
  pendingApprovals?: PendingApproval[];
  /**
   * Set when the run ended its turn by asking the user something (`ask_user`): `text` is the
   * question, and the answer goes in the conversation's next message. The run is `completed`.
   */
  needsInput?: InputRequest;
  /**
   * Set when the turn ended on calls of `RunOptions.clientTools`: the caller runs them and sends
   * their results (a `tool` message) as the next input. `finishReason` is `tool-calls`.
   */
  clientToolCalls?: ToolCallRecord[];
  /** The session the run read and wrote, for session runs. */
  sessionId?: string;
}
