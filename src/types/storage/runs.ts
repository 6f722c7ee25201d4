import type { SessionEntryInput } from './sessions.js';

/** Where a run stands. */
/** Where a run stands (`cancelled`: stopped on request; it keeps what it had said). */
export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** What `checkpoints.save()` takes. */
export interface CheckpointInput {
  runId: string;
  /** The session the run writes to, when it has one (it must exist). */
  sessionId?: string;
  agent: string;
  status: RunStatus;
  /** The serialised run state (any JSON; `Uint8Array`s survive). */
  state: unknown;
  /** When the checkpoint may be removed by `deleteExpired()`; never when absent. */
  expiresAt?: Date;
  /**
   * Entries appended to the session (`sessionId`, required then) in the same transaction as the
   * checkpoint — e.g. a run's input with its first checkpoint: both are stored or neither. They
   * get the session's next seqs; with `expectedLastSeq` (as in `sessions.appendMany`) a session
   * that has moved on fails the save with a `storage_conflict` error and nothing is written.
   */
  append?: CheckpointAppend;
}

/** Session entries written with a checkpoint (`CheckpointInput.append`). */
export interface CheckpointAppend {
  entries: SessionEntryInput[];
  expectedLastSeq?: number;
}

/** A stored checkpoint. `seq` counts the run's checkpoints: 1, 2, 3… */
export interface Checkpoint {
  runId: string;
  seq: number;
  sessionId?: string;
  agent: string;
  status: RunStatus;
  state: unknown;
  createdAt: Date;
  expiresAt?: Date;
}

/** A run as listed: its identity and the status of its latest checkpoint. */
export interface RunRecord {
  runId: string;
  sessionId?: string;
  agent: string;
  status: RunStatus;
  /** Number of checkpoints saved (the latest seq). */
  checkpoints: number;
  createdAt: Date;
  updatedAt: Date;
  expiresAt?: Date;
}

/** Filters for `checkpoints.listRuns()`; most recently updated first. */
export interface RunListOptions {
  status?: RunStatus | RunStatus[];
  sessionId?: string;
  agent?: string;
  /** Default 100. */
  limit?: number;
}

/** Run checkpoints, for resumable runs. Expired checkpoints are invisible and removed by `deleteExpired()`. */
export interface CheckpointStore {
  /** Saves the run's next checkpoint (creating the run on its first one), with `input.append`'s session entries atomically. */
  save(input: CheckpointInput): Promise<Checkpoint>;
  /** The run's latest unexpired checkpoint, or undefined. */
  latest(runId: string): Promise<Checkpoint | undefined>;
  /** The run, or undefined. */
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Runs whose latest checkpoint has not expired, most recently updated first. */
  listRuns(options?: RunListOptions): Promise<RunRecord[]>;
  /** Deletes a run, its checkpoints and approvals. */
  delete(runId: string): Promise<boolean>;
  /** Removes checkpoints expired at `now` (default: the store's clock), then runs left without any; resolves with the count of checkpoints removed. */
  deleteExpired(now?: Date): Promise<number>;
}

/** Where an approval stands. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied';

/** What `approvals.create()` takes. */
export interface ApprovalInput {
  /** Generated (`apr_…`) when absent. */
  id?: string;
  /** An existing run (save a checkpoint first). */
  runId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** Text shown to whoever approves. */
  prompt?: string;
}

/** A tool call waiting for (or given) a human decision. */
export interface Approval {
  id: string;
  runId: string;
  sessionId?: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  prompt?: string;
  status: ApprovalStatus;
  /** Why it was approved or denied (the model sees a denial's reason). */
  reason?: string;
  createdAt: Date;
  answeredAt?: Date;
}

/** Pending approvals of tool calls; an approval is answered exactly once. */
export interface ApprovalStore {
  /**
   * Records a pending approval. Idempotent per (runId, toolCallId): creating it again returns the
   * existing one, so a resumed run does not ask twice. An unknown run is a `not_found` error.
   */
  create(input: ApprovalInput): Promise<Approval>;
  /** The approval, or undefined. */
  get(id: string): Promise<Approval | undefined>;
  /** Pending approvals, oldest first, optionally of one run or session. */
  listPending(options?: { runId?: string; sessionId?: string; limit?: number }): Promise<Approval[]>;
  /** Every approval of a run, oldest first. */
  listForRun(runId: string): Promise<Approval[]>;
  /**
   * Approves or denies, atomically: answering an approval that is no longer pending is a
   * `storage_conflict` error (also when two processes race); an unknown id is `not_found`.
   */
  answer(id: string, answer: { approved: boolean; reason?: string }): Promise<Approval>;
}
