import type { AgentEvent } from '../types/events.js';
import type { RunResult } from '../types/result.js';

/**
 * A streaming run: iterate it for events (the iteration ends after `run_end`, also on failure),
 * await `result` for the final outcome (it rejects when the run fails).
 */
export interface RunStream extends AsyncIterable<AgentEvent> {
  readonly result: Promise<RunResult>;
  /** Cancels the run. */
  abort(reason?: unknown): void;
}
