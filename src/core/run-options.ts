import type { EventSink } from '../types/events.js';
import type { ReasoningSettings, ToolChoice } from '../types/model.js';
import type { Usage } from '../types/usage.js';
import type { RunState } from './run-state.js';
import type { RunLimits, RunTree } from './run-tree.js';

/** Per-run overrides and hooks. Anything unset falls back to the agent's, then the model's, settings. */
export interface RunOptions {
  /** Cancels the run; the promise rejects with RunAbortedError and the conversation is left unchanged. */
  signal?: AbortSignal;
  maxSteps?: number;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  toolChoice?: ToolChoice;
  /** Receives every event of the run, including nested agent runs (also with `run()`). */
  onEvent?: EventSink;
  /**
   * Limits for the whole run tree (depth, total steps, total tokens, wall time); override the
   * agent's `limits`. Exceeding one stops the run with `LimitExceededError`.
   */
  limits?: RunLimits;
  /**
   * Shared state for the run: a `RunState` (used and changed in place), or a plain object of
   * initial session values (`{ topic: 'birds' }` for `{state.topic}`). A conversation passes its own.
   */
  state?: RunState | Record<string, unknown>;
}

/** Internal: lets `exit_loop` end the loop agent a run belongs to. */
export interface LoopControl {
  exited: boolean;
  exit(agent: string, reason?: string): void;
}

/** Internal: how a nested run attaches to its parent and to the run tree. */
export interface ParentLink {
  path: readonly string[];
  sink?: EventSink;
  /** Adds the nested run's usage (and its per-agent breakdown) into the parent's. */
  reportUsage?: (usage: Usage, byAgent?: Record<string, Usage>) => void;
  /** The run tree's shared state. */
  state?: RunState;
  /** The budget tracker, when the top-level run has limits. */
  tree?: RunTree;
  /** The enclosing loop agent, for `exit_loop`. */
  loop?: LoopControl;
}
