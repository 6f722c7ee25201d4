import type { RunEventLog } from './storage/run-events.js';

/** The queue backends: in the process (with the store), Postgres (pg-boss), Redis (BullMQ). */
export type RunQueueKind = 'embedded' | 'postgres' | 'redis';

/** Options of `RunQueue.enqueue`. */
export interface EnqueueOptions {
  /** Start no sooner than this many milliseconds from now. */
  delayMs?: number;
}

/** Options of `RunQueue.work`. */
export interface WorkOptions {
  /** Runs executed at once by this worker. */
  concurrency: number;
}

/** A worker taking jobs from a queue. */
export interface QueueWorker {
  /** Stops taking jobs and waits for the running ones to settle. */
  stop(): Promise<void>;
}

/**
 * Takes one run id off the queue. Resolving acknowledges the job; throwing hands it back to the
 * queue's retry policy. A worker that dies with a job is the queue's business: the job is
 * delivered again (to any worker) once its visibility timeout passes.
 */
export type RunJobHandler = (runId: string) => Promise<void>;

/**
 * Wake-ups for readers of run event logs (Postgres LISTEN/NOTIFY, a Redis blocking read): a
 * reader still reads the log itself; a wake-up only ends its wait early. Without them readers poll.
 */
export interface RunEventWakeups {
  /** Tells the readers of `runId` (in any process) that events were appended. */
  notify(runId: string): Promise<void>;
  /**
   * Resolves when `runId` may have new events, after `timeoutMs` at the latest, or on `signal`.
   * `after`: the last seq the reader has seen (a backend may then end the wait at once when later ones exist).
   */
  wait(runId: string, options: { timeoutMs: number; signal?: AbortSignal; after?: number }): Promise<void>;
}

/**
 * Where submitted runs wait for a worker: one port, several backends (the store keeps the runs
 * and their events; the queue only carries run ids and wakes workers). Retries, backoff,
 * visibility timeouts and dead letters are the backing library's.
 */
export interface RunQueue {
  readonly kind: RunQueueKind;
  /** Queues run `runId` (stored already, `queued`). */
  enqueue(runId: string, options?: EnqueueOptions): Promise<void>;
  /** Starts taking jobs and calling `handler` for each, at most `concurrency` at a time. */
  work(handler: RunJobHandler, options: WorkOptions): Promise<QueueWorker>;
  /** This backend's own event log (Redis Streams); undefined: the store's `runEvents`. */
  readonly events?: RunEventLog;
  /** Wake-ups for stream readers; undefined: readers poll the log. */
  readonly wakeups?: RunEventWakeups;
  /** Stops the workers and releases connections. Idempotent. */
  close(): Promise<void>;
}
