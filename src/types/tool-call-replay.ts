/** The key under which a model wrapper offers its `ToolCallReplay` (a cassette does). */
export const TOOL_CALL_REPLAY: unique symbol = Symbol.for('corvid.toolCallReplay');

/**
 * Marks a tool that always runs, even when a cassette replays tool results: tools that steer the
 * run rather than compute an answer (agent tools, `transfer_to_*`, `exit_loop`).
 */
export const RUNS_LIVE: unique symbol = Symbol.for('corvid.tool.runsLive');

/** A tool call as the replay sees it. */
export interface ReplayedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A tool call's outcome, as recorded. */
export interface ToolOutcome {
  output: unknown;
  isError: boolean;
}

/**
 * Record and replay of tool results, offered by a model wrapper (`model[TOOL_CALL_REPLAY]`): the
 * agent loop asks it before running a tool of a step that model answered, and tells it what a tool
 * returned. `path` is the calling agent's path (its lane).
 */
export interface ToolCallReplay {
  /** The recorded outcome (the tool is not run), or `undefined` to run it. May throw (a replay miss). */
  replay(call: ReplayedCall, path: readonly string[]): ToolOutcome | undefined;
  /** A tool ran (or was refused): its outcome, to record. */
  record(call: ReplayedCall, path: readonly string[], outcome: ToolOutcome): void;
}

/** The model's `ToolCallReplay`, if it offers one. */
export function toolCallReplayOf(model: object): ToolCallReplay | undefined {
  return (model as { [TOOL_CALL_REPLAY]?: ToolCallReplay })[TOOL_CALL_REPLAY];
}

/** True for a tool marked `RUNS_LIVE`. */
export function runsLive(tool: object): boolean {
  return (tool as { [RUNS_LIVE]?: boolean })[RUNS_LIVE] === true;
}

/** Marks a tool `RUNS_LIVE` and returns it. */
export function alwaysLive<T extends object>(tool: T): T {
  (tool as { [RUNS_LIVE]?: boolean })[RUNS_LIVE] = true;
  return tool;
}
