import type { EventSink } from '../types/events.js';
import type { ReasoningSettings, ToolChoice } from '../types/model.js';

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
}

/** Internal: how a nested run attaches to its parent. */
export interface ParentLink {
  path: readonly string[];
  sink?: EventSink;
  /** Adds the nested run's usage into the parent's. */
  reportUsage?: (usage: import('../types/usage.js').Usage) => void;
}
