import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import { RUN_LEASE_TTL_MS } from '../../durable/run-lease.js';
import { RunLeaseHeldError } from '../../errors/run-lease-held-error.js';
import type { RunRecord } from '../../types/storage/runs.js';
import type { Store } from '../../types/storage/store.js';
import type { ChatService } from '../chat/chat-service.js';

/** Options of `resumeInterruptedRuns`. */
export interface AutoResumeOptions {
  chat: ChatService;
  store: () => Promise<Store>;
  logger: Logger;
  /** Stops starting further resumes (the server is closing). */
  stopped: () => boolean;
  /** Aborted when the server closes: ends a wait for held runs at once. */
  signal?: AbortSignal;
  /**
   * How long to wait before looking again at runs another process holds (running there, or that
   * process died and its lease has yet to expire). Default: the lease's lifetime plus a second.
   */
  retryDelayMs?: number;
  /** Looks at held runs this many more times before leaving them. Default 3. */
  retries?: number;
}

/**
 * `storage.resume: auto`: continues the runs left `running` by an earlier process (a crash, a
 * kill), oldest first, one at a time, each as a turn of its session (so a client's turn on the
 * same session waits its turn with a 409, as usual). A run another process holds the lease of
 * (running there, or that process died less than a lease lifetime ago) is looked at again later,
 * so servers starting together on one database never run the same run twice. Runs in the
 * background; every run and its outcome is logged; failures are logged and skipped.
 * @returns how many runs were resumed to completion or a pause.
 */
export async function resumeInterruptedRuns(options: AutoResumeOptions): Promise<number> {
  const { logger } = options;
  let runs: RunRecord[];
  try {
    const store = await options.store();
    runs = (await store.checkpoints.listRuns({ status: 'running', limit: 1000 })).reverse();
  } catch (err) {
    logger.error(
      { error: (err as Error).message },
      `storage.resume is auto, but the interrupted runs could not be listed: ${(err as Error).message}`,
    );
    return 0;
  }
  if (runs.length === 0) return 0;
  logger.info({ count: runs.length }, `resuming ${runs.length} interrupted run(s) (storage.resume: auto)`);
  let resumed = 0;
  let held: RunRecord[] = [];
  for (let pass = 0; ; pass++) {
    for (const r of runs) {
      if (options.stopped()) return resumed;
      const outcome = await resumeOne(options, r);
      if (outcome === 'resumed') resumed++;
      else if (outcome === 'held') held.push(r);
    }
    if (held.length === 0 || pass >= (options.retries ?? 3) || options.stopped()) break;
    logger.info({ runs: held.map((r) => r.runId) }, `${held.length} interrupted run(s) held by another process; looking again later`);
    const waited = await sleep(options.retryDelayMs ?? RUN_LEASE_TTL_MS + 1000, true, { ref: false, signal: options.signal }).catch(
      () => false,
    );
    if (!waited) return resumed;
    runs = held;
    held = [];
  }
  if (held.length > 0)
    logger.info({ runs: held.map((r) => r.runId) }, `${held.length} run(s) still running in another process; not resumed here`);
  return resumed;
}

/**
 * Resumes one run if it is still `running` and nobody else holds it (running it in another
 * process, or that process died less than a lease lifetime ago): the resume takes the run's lease.
 */
async function resumeOne(options: AutoResumeOptions, r: RunRecord): Promise<'resumed' | 'held' | 'skipped'> {
  const { chat, logger } = options;
  const fields = { runId: r.runId, sessionId: r.sessionId, agent: r.agent };
  try {
    // Another process may have finished it since the list was read.
    const now = await (await options.store()).checkpoints.getRun(r.runId);
    if (now?.status !== 'running') return 'skipped';
    const { turn } = await chat.beginResume({ runId: r.runId, principal: { kind: 'anonymous' }, client: 'server', trusted: true });
    logger.info(fields, 'resuming interrupted run');
    const result = await turn.run();
    logger.info(
      { ...fields, status: result.status ?? 'completed', pendingApprovals: result.pendingApprovals?.length },
      `resumed run ${result.status === 'paused' ? 'paused for approvals' : 'completed'}`,
    );
    return 'resumed';
  } catch (err) {
    if (err instanceof RunLeaseHeldError || (err as { cause?: unknown }).cause instanceof RunLeaseHeldError) return 'held';
    logger.error({ ...fields, error: (err as Error).message }, `could not resume run ${r.runId}: ${(err as Error).message}`);
    return 'skipped';
  }
}
