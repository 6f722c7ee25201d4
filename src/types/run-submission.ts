import type { BackgroundRun } from './storage/background-runs.js';

/** Options of `runtime.runs.submit()` and `agent.submit()`. */
export interface SubmitOptions {
  /** Run in this stored session (created when missing). */
  session?: string;
  /** Who submits it (the server passes the caller's user): it owns the run (and a new session). */
  owner?: string;
  /** POSTed the run's outcome (JSON) when it ends. */
  webhook?: string;
  /** Start no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** Start no sooner than this time (instead of `delayMs`); a time past runs now. */
  runAt?: Date;
  /**
   * The run's id (default: a new one). A second submission with the same id is refused with
   * StorageError `conflict` and queues nothing: what makes a scheduled tick run once.
   */
  runId?: string;
}

/**
 * Where `agent.submit()` hands its runs: the runtime's background runs (`runtime.runs`), which
 * store each run, queue it for a worker and answer at once with its record.
 */
export interface RunSubmitter {
  /**
   * Stores a `queued` run of agent `agent` with `input` and queues it.
   * @throws ConfigError for an unknown agent
   */
  submit(agent: string, input: string, options?: SubmitOptions): Promise<BackgroundRun>;
}
