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
import { deadLocalHolder, runLeaseName } from './run-lease.js';
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

/** How long a run marked started may go without its lease before another worker takes it over. */
const START_GRACE_MS = 15_000;

/** The run is being run by a live worker elsewhere: the queue should offer it again later. */
export class RunHeldElsewhereError extends Error {
  constructor(runId: string) {
    super(`run ${runId} is running in another worker`);
    this.name = 'RunHeldElsewhereError';
  }
}

/**
 * Runs submitted run `runId` (a queue job): starts it, or resumes it from its last checkpoint
 * when a worker that had it died or its approvals were answered (finished tool calls are not run
 * again), writes its events to its log, stops it when it is cancelled, and records how it ended. A run that is final,
 * cancelled or taken by another worker is left alone.
 * @throws RunHeldElsewhereError when another live worker holds the run (the queue retries later).
 */
export async function executeBackgroundRun(options: BackgroundExecutorOptions, runId: string): Promise<void> {
  const store = await options.runtime.store();
  const record = await store.backgroundRuns.get(runId);
  if (record === undefined || isFinalRunStatus(record.status) || record.status === 'paused') return;
  if (record.cancelRequested) return void (await store.backgroundRuns.finish(runId, cancelled()));
  const lease = await store.leases.get(runLeaseName(runId));
  if (lease !== undefined && !deadLocalHolder(lease.holder)) throw new RunHeldElsewhereError(runId);
  // A worker that has just started the run takes its lease a moment later: a `running` run without
  // a lease is taken over only once that moment is long past (else two workers would run it).
  if (lease === undefined && record.status === 'running' && Date.now() - record.updatedAt.getTime() < START_GRACE_MS)
    throw new RunHeldElsewhereError(runId);
  const started = await store.backgroundRuns.markStarted(runId, options.worker, record.attempts);
  if (started === undefined) return;
  const log = options.events?.log ?? store.runEvents;
  const writer = await RunEventWriter.open(log, runId, options.events?.wakeups);
  // The worker before died after the run completed, before recording it: only the record is left to write.
  const completed = await completedRunOutcome(store, log, runId);
  const outcome = completed?.outcome ?? (await runAndLog(options, store, started, writer));
  if (outcome === 'held') throw new RunHeldElsewhereError(runId);
  if (!completed?.logged) writer.add('done', { type: 'done', runId, status: outcome.status, result: outcome.result, error: outcome.error });
  await writer.flush().catch(() => undefined);
  await store.backgroundRuns.finish(runId, outcome);
  // Answered while the pause was being recorded: the answer found the run not paused yet.
  if (outcome.status === 'paused' && (await store.approvals.listPending({ runId })).length === 0) await options.requeue?.(runId);
  if (record.webhook !== undefined && outcome.status !== 'paused') {
    await postWebhook(record.webhook, { runId, ...outcome }).catch(reportRejection(`the webhook of run ${runId}`));
  }
}

async function runAndLog(
  options: BackgroundExecutorOptions,
  store: Store,
  record: BackgroundRun,
  writer: RunEventWriter,
): Promise<BackgroundRunOutcome | 'held'> {
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
    if (err instanceof RunLeaseHeldError || (err as { cause?: unknown }).cause instanceof RunLeaseHeldError) return 'held';
    if (controller.signal.aborted) return cancelled();
    const e = err as { code?: string; message?: string };
    return { status: 'failed', error: { code: e.code ?? 'internal', message: e.message ?? String(err) } };
  } finally {
    stopWatching();
  }
}

/** A new run with the record's id, or the stored run continued from its last checkpoint. */
async function startOrResume(runtime: RunsRuntime, store: Store, record: BackgroundRun, signal: AbortSignal): Promise<RunStream> {
  const agent = runtime.agent<Runnable>(record.agent);
  const source = () => runtime.store();
  if ((await store.checkpoints.getRun(record.runId)) !== undefined && agent.kind === 'llm') {
    return (agent as Agent).resumeStream(record.runId, { store: source, signal });
  }
  const session =
    record.sessionId === undefined ? undefined : record.owner ? { id: record.sessionId, userId: record.owner } : record.sessionId;
  return agent.stream(record.input, { store: source, signal, runId: record.runId, durable: true, ...(session ? { session } : {}) });
}

function cancelled(): BackgroundRunOutcome {
  return { status: 'cancelled', error: { code: 'run_cancelled', message: 'The run was cancelled' } };
}
