/** One event of a run's log. */
export interface RunEventRecord {
  runId: string;
  /** 1, 2, 3… per run, with no gaps: a reader resumes after the last one it saw. */
  seq: number;
  /** The event's `type` (an `AgentEvent` type, or `done` closing the log). */
  type: string;
  /** The event as JSON. */
  data: unknown;
  createdAt: Date;
}

/** An event to append, with the seq its writer gives it. */
export interface RunEventInput {
  seq: number;
  type: string;
  data: unknown;
}

/**
 * The append-only event log of submitted runs: what `GET /api/v1/runs/{id}/stream` and
 * `runs.stream()` read, on any instance sharing the database. A run has one writer at a time
 * (the worker holding its lease), which numbers the events; a seq written twice is refused.
 */
export interface RunEventLog {
  /** Appends events in one transaction. @throws StorageError `conflict` when a seq exists already. */
  append(runId: string, events: readonly RunEventInput[]): Promise<void>;
  /** Events with seq > `after` (default 0), in order, at most `limit` (default 1000). */
  read(runId: string, options?: { after?: number; limit?: number }): Promise<RunEventRecord[]>;
  /** The highest seq of the run; 0 when it has none. */
  lastSeq(runId: string): Promise<number>;
}
