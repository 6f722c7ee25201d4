/** Where a submitted (background) run stands. `queued` until a worker takes it; the last three are final. */
export type BackgroundRunStatus = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** The final statuses: the run's event log is complete and the record does not change again. */
export const FINAL_RUN_STATUSES: readonly BackgroundRunStatus[] = ['completed', 'failed', 'cancelled'];

/** Whether `status` is final (`completed`, `failed` or `cancelled`). */
export function isFinalRunStatus(status: BackgroundRunStatus): boolean {
  return FINAL_RUN_STATUSES.includes(status);
}

/** What `BackgroundRunStore.create` takes. */
export interface BackgroundRunInput {
  /** The run's id (also the id of its checkpoints once it starts). */
  runId: string;
  agent: string;
  input: string;
  sessionId?: string;
  /** Who submitted it (`principalUser`): only they see it when auth is on. */
  owner?: string;
  /** Called with the run's outcome (POST JSON) when it ends. */
  webhook?: string;
  /** Not before this time (a delayed run). Default: now. */
  runAt?: Date;
}

/** How a run ended, as `finish` records it. */
export interface BackgroundRunOutcome {
  status: Exclude<BackgroundRunStatus, 'queued' | 'running'>;
  /** The run's answer (the `RunResult` fields a client needs), for `completed` and `paused`. */
  result?: unknown;
  /** Why it failed or was cancelled. */
  error?: { code: string; message: string };
}

/** A submitted run as stored. */
export interface BackgroundRun {
  runId: string;
  agent: string;
  input: string;
  sessionId?: string;
  owner?: string;
  webhook?: string;
  status: BackgroundRunStatus;
  result?: unknown;
  error?: { code: string; message: string };
  /** Set by `requestCancel`: the worker running it stops it. */
  cancelRequested: boolean;
  /** How many times a worker started it (more than 1: it was taken over after a worker died). */
  attempts: number;
  /** The worker that started it last. */
  worker?: string;
  runAt: Date;
  createdAt: Date;
  updatedAt: Date;
  finishedAt?: Date;
}

/**
 * Submitted runs: what was asked (agent, input, session, owner, webhook), where each stands and
 * how it ended, and the cancel flag every instance sharing the database sees. The queue carries
 * only run ids; this record is the truth.
 */
export interface BackgroundRunStore {
  /** Stores a new `queued` run. @throws StorageError `conflict` when the id exists. */
  create(input: BackgroundRunInput): Promise<BackgroundRun>;
  /** A run by id; undefined when unknown. */
  get(runId: string): Promise<BackgroundRun | undefined>;
  /** Runs with `status`, due (`runAt` ≤ now) when `due` is set, oldest first. */
  list(filter: { status: BackgroundRunStatus; due?: boolean; limit?: number }): Promise<BackgroundRun[]>;
  /**
   * A worker starts (or takes over) the run: `running`, `attempts` + 1, `worker` set. Undefined
   * (nothing changed) when the run is unknown, final, asked to be cancelled, or its `attempts` is
   * no longer `attempts` (another worker started it since it was read: of two, one wins).
   */
  markStarted(runId: string, worker: string, attempts: number): Promise<BackgroundRun | undefined>;
  /**
   * A `paused` run whose approvals are answered goes back to `queued` (due now) for a worker to
   * resume it. Undefined (nothing changed) when the run is unknown or not `paused`: of two callers, one wins.
   */
  requeue(runId: string): Promise<BackgroundRun | undefined>;
  /** Records how the run ended (`paused` is not final: it waits for approvals). False when it was final already. */
  finish(runId: string, outcome: BackgroundRunOutcome): Promise<boolean>;
  /**
   * Asks for the run to stop: sets the flag; a `queued` run is `cancelled` at once. Undefined
   * when unknown; the record as it is now otherwise.
   */
  requestCancel(runId: string): Promise<BackgroundRun | undefined>;
  /** Of `runIds`, those asked to be cancelled (what a worker polls for the runs it runs). */
  cancelRequested(runIds: readonly string[]): Promise<string[]>;
}
