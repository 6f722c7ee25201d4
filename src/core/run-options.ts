import type { ClientTool } from '../types/client-tool.js';
import type { ApprovalHandler, CheckpointOptions, SessionRef, StoreSource } from '../types/durable-options.js';
import type { EventSink } from '../types/events.js';
import type { ModelSettings } from '../types/model.js';
import type { RunState } from '../types/run-state.js';
import type { Usage } from '../types/usage.js';
import type { RunJournal } from './run-journal.js';
import type { RunLimits, RunTree } from './run-tree.js';

/** Per-run overrides (`ModelSettings`) and hooks. Anything unset falls back to the agent's, then the model's, settings. */
export interface RunOptions extends ModelSettings {
  /** Cancels the run; the promise rejects with RunAbortedError and the conversation is left unchanged. */
  signal?: AbortSignal;
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
  /**
   * Run in a stored session: its messages are the history, the input and every step are appended
   * as they happen, its session state is loaded and saved, and the run is checkpointed so it can
   * be resumed (`agent.resume(runId)`). A string is the session id (created when missing).
   */
  session?: SessionRef;
  /** The store for session / durable runs (overrides the agent's `store`). */
  store?: StoreSource;
  /** Checkpoint the run (resumable, approvals can pause it) even without a session. */
  durable?: boolean;
  /**
   * Session / durable runs: the id the run gets (default a new `run_…` id), e.g. one that
   * `runs.submit()` handed out before the run started. It must not name a stored run.
   */
  runId?: string;
  /** When checkpoints are written (overrides the agent's `checkpoints`). */
  checkpoints?: CheckpointOptions;
  /**
   * Decides `requireApproval` tool calls in process (e.g. a y/n prompt) instead of pausing the
   * run. Without it a durable run pauses; a run with neither fails on such a call.
   */
  onApproval?: ApprovalHandler;
  /**
   * Tools the caller runs itself (top-level run only): offered to the model with the agent's own;
   * a step that calls one ends the turn with the calls in `RunResult.clientToolCalls` (the step's
   * other calls run as usual). The next input carries their results as a `tool` message.
   */
  clientTools?: readonly ClientTool[];
  /** @internal The journal of the durable run this execution belongs to (set by session / durable runs and resume). */
  journal?: RunJournal;
  /**
   * @internal Session / durable runs and resume: the caller holds the run's lease already (a
   * background run's worker takes it before marking the run started), so the run neither takes nor releases it.
   */
  leaseHeld?: boolean;
}

/** Options for `agent.resume()`: the per-run settings of `RunOptions` (the input, session and state come from the checkpoint). */
export type ResumeOptions = Omit<RunOptions, 'session' | 'state' | 'durable' | 'journal' | 'runId'> & { checkpoints?: CheckpointOptions };

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
  /** Handoff targets of a durable run continue it (same journal: checkpoints and session). */
  journal?: RunJournal;
  /** The top-level run's approval handler. */
  onApproval?: ApprovalHandler;
}
