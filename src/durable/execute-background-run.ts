import { setTimeout as sleep } from 'node:timers/promises';

import type { Agent } from '../core/agent.js';
import { reportRejection } from '../core/report-rejection.js';
import type { RunStream } from '../core/run-stream.js';
import type { Runnable } from '../core/runnable.js';
import { RunLeaseHeldError } from '../errors/run-lease-held-error.js';
import type { EventSink } from '../types/events.js';
import type { RunEventWakeups } from '../types/run-queue.js';
import type { BackgroundRun, BackgroundRunOutcome } from '../types/storage/background-runs.js';
import { isFinalRunStatus } from '../types/storage/background-runs.js';
import type { RunEventLog } from '../types/storage/run-events.js';
import type { Store } from '../types/storage/store.js';
import { backgroundResult } from './background-result.js';
import { completedRunOutcome } from './completed-run-outcome.js';
import { postWebhook } from './post-webhook.js';
import { RunEventWriter } from './run-event-writer.js';
import { holdRunLease, type RunLease } from './run-lease.js';
import type { RunsRuntime } from './runtime-runs.js';
import { watchCancel } from './watch-cancel.js';

/** What executing submitted runs needs. */
export interface BackgroundExecutorOptions {
  runtime: RunsRuntime;
  /** This worker's name in the run records (host/pid). */
  worker: string;
  /** Sees every event of every run (metrics, logs). */
  onEvent?: EventSink;
  /** The queue's own event log and wake-ups, when it has them (the store's log otherwise). */
  events?: { log?: RunEventLog; wakeups?: RunEventWakeups };
  /** Cancel flags are read this often. Default 250 ms. */
  cancelPollMs?: number;
  /** Queues a paused run again (`runs.resumeQueued`): its approvals were answered while it was pausing. */
  requeue?: (runId: string) => Promise<unknown>;
}

/** How often, and how far apart, the lease of a `queued` run is tried before it is left to its holder. */
const QUEUED_LEASE_TRIES = 5;
const QUEUED_LEASE_RETRY_MS = 100;

/** The run is being run by a live worker elsewhere: the queue should offer it again later. */
export class RunHeldElsewhereError extends Error {
  constructor(runId: string) {
    super(`run ${runId} is running in another worker`);
    this.name = 'RunHeldElsewhereError';
  }
}

/** How an execution ended: the record as it was when taken, and the outcome stored. */
interface Ended {
  record: BackgroundRun;
  outcome: BackgroundRunOutcome;
}

/**
 * Runs submitted run `runId` (a queue job): starts it, or resumes it from its last checkpoint
 * when a worker that had it died or its approvals were answered (finished tool calls are not run
 * again), writes its events to its log, stops it when it is cancelled, and records how it ended. A run that is final,
 * cancelled or taken by another worker is left alone.
 *
 * The worker takes the run's lease before it marks the run `running`, and gives it back only once
 * the run is recorded final or paused: a `running` run whose lease nobody (alive) holds is one
 * whose worker died, and the next worker takes it over at once.
 * @throws RunHeldElsewhereError when another live worker holds the run (the queue retries later).
 */
export async function executeBackgroundRun(options: BackgroundExecutorOptions, runId: string): Promise<void> {
  const store = await options.runtime.store();
  const record = await store.backgroundRuns.get(runId);
  if (!executable(record)) return;
  const lease = await takeRunLease(store, runId, record.status === 'queued');
  let ended: Ended | undefined;
  try {
    ended = await executeHeld(options, store, runId);
  } finally {
    await lease.release();
  }
  if (ended !== undefined) await afterEnd(options, store, ended);
}

/**
 * The run's lease. A `queued` run's lease is held only for a moment (its worker before is giving
 * it back after recording a pause that was answered at once): tried again a few times first.
 * @throws RunHeldElsewhereError when a live worker holds it
 */
async function takeRunLease(store: Store, runId: string, queued: boolean): Promise<RunLease> {
  for (let tries = queued ? QUEUED_LEASE_TRIES : 1; ; tries--) {
    try {
      return await holdRunLease(store, runId);
    } catch (err) {
      if (!(err instanceof RunLeaseHeldError)) throw err;
      if (tries <= 1) throw new RunHeldElsewhereError(runId);
    }
    await sleep(QUEUED_LEASE_RETRY_MS);
  }
}

/** Starts (or takes over) and runs the run under its lease, and records how it ended. Undefined when there was nothing to run. */
async function executeHeld(options: BackgroundExecutorOptions, store: Store, runId: string): Promise<Ended | undefined> {
  // Read again under the lease: the worker before may have recorded it meanwhile.
  const record = await store.backgroundRuns.get(runId);
  if (!executable(record)) return undefined;
  if (record.cancelRequested) return void (await store.backgroundRuns.finish(runId, cancelled()));
  const started = await store.backgroundRuns.markStarted(runId, options.worker, record.attempts);
  if (started === undefined) return undefined;
  const log = options.events?.log ?? store.runEvents;
  const writer = await RunEventWriter.open(log, runId, options.events?.wakeups);
  // The worker before died after the run completed, before recording it: only the record is left to write.
  const completed = await completedRunOutcome(store, log, runId);
  const outcome = completed?.outcome ?? (await runAndLog(options, store, started, writer));
  if (!completed?.logged) writer.add('done', { type: 'done', runId, status: outcome.status, result: outcome.result, error: outcome.error });
  await writer.flush().catch(() => undefined);
  await store.backgroundRuns.finish(runId, outcome);
  return { record, outcome };
}

/** After the lease is given back: a paused run answered meanwhile is queued again, the webhook is told the outcome. */
async function afterEnd(options: BackgroundExecutorOptions, store: Store, { record, outcome }: Ended): Promise<void> {
  const runId = record.runId;
  // Answered while the pause was being recorded: the answer found the run not paused yet.
  if (outcome.status === 'paused' && (await store.approvals.listPending({ runId })).length === 0) await options.requeue?.(runId);
  if (record.webhook !== undefined && outcome.status !== 'paused') {
    await postWebhook(record.webhook, { runId, ...outcome }).catch(reportRejection(`the webhook of run ${runId}`));
  }
}

/** A run a worker may execute: known, not final, not paused for approvals. */
function executable(record: BackgroundRun | undefined): record is BackgroundRun {
  return record !== undefined && !isFinalRunStatus(record.status) && record.status !== 'paused';
}

async function runAndLog(
  options: BackgroundExecutorOptions,
  store: Store,
  record: BackgroundRun,
  writer: RunEventWriter,
): Promise<BackgroundRunOutcome> {
  const controller = new AbortController();
  const stopWatching = watchCancel(store, record.runId, controller, options.cancelPollMs);
  try {
    const stream = await startOrResume(options.runtime, store, record, controller.signal);
    for await (const e of stream) {
      writer.add(e.type, e);
      options.onEvent?.(e);
    }
    const result = await stream.result;
    return { status: result.status === 'paused' ? 'paused' : 'completed', result: backgroundResult(result) };
  } catch (err) {
    if (controller.signal.aborted) return cancelled();
    const e = err as { code?: string; message?: string };
    return { status: 'failed', error: { code: e.code ?? 'internal', message: e.message ?? String(err) } };
  } finally {
    stopWatching();
  }
}

/** A new run with the record's id, or the stored run continued from its last checkpoint; the worker holds its lease. */
async function startOrResume(runtime: RunsRuntime, store: Store, record: BackgroundRun, signal: AbortSignal): Promise<RunStream> {
  const agent = runtime.agent<Runnable>(record.agent);
  const source = () => runtime.store();
  if ((await store.checkpoints.getRun(record.runId)) !== undefined && agent.kind === 'llm') {
    return (agent as Agent).resumeStream(record.runId, { store: source, signal, leaseHeld: true });
  }
  const session =
    record.sessionId === undefined ? undefined : record.owner ? { id: record.sessionId, userId: record.owner } : record.sessionId;
  return agent.stream(record.input, {
    store: source,
    signal,
    runId: record.runId,
    durable: true,
    leaseHeld: true,
    ...(session ? { session } : {}),
  });
}

function cancelled(): BackgroundRunOutcome {
  return { status: 'cancelled', error: { code: 'run_cancelled', message: 'The run was cancelled' } };
}
