import type { Logger } from 'pino';
import type { Store } from '../storage/types/store.js';
import type { ChatService } from './chat-service.js';

/** Options of `resumeInterruptedRuns`. */
export interface AutoResumeOptions {
  chat: ChatService;
  store: () => Promise<Store>;
  logger: Logger;
  /** Stops starting further resumes (the server is closing). */
  stopped: () => boolean;
}

/**
 * `storage.resume: auto`: continues the runs left `running` by an earlier process (a crash, a
 * kill), oldest first, one at a time, each as a turn of its session (so a client's turn on the
 * same session waits its turn with a 409, as usual). Runs in the background; every run and its
 * outcome is logged; failures are logged and skipped.
 * @returns how many runs were resumed to completion or a pause.
 */
export async function resumeInterruptedRuns(options: AutoResumeOptions): Promise<number> {
  const { chat, logger } = options;
  let runs;
  try {
    const store = await options.store();
    runs = (await store.checkpoints.listRuns({ status: 'running', limit: 1000 })).reverse();
  } catch (err) {
    logger.error({ error: (err as Error).message }, `storage.resume is auto, but the interrupted runs could not be listed: ${(err as Error).message}`);
    return 0;
  }
  if (runs.length === 0) return 0;
  logger.info({ count: runs.length }, `resuming ${runs.length} interrupted run(s) (storage.resume: auto)`);
  let resumed = 0;
  for (const r of runs) {
    if (options.stopped()) break;
    const fields = { runId: r.runId, sessionId: r.sessionId, agent: r.agent };
    try {
      const { turn } = await chat.beginResume({ runId: r.runId, principal: { kind: 'anonymous' }, client: 'server', trusted: true });
      logger.info(fields, 'resuming interrupted run');
      const result = await turn.run();
      resumed++;
      logger.info({ ...fields, status: result.status ?? 'completed', pendingApprovals: result.pendingApprovals?.length }, `resumed run ${result.status === 'paused' ? 'paused for approvals' : 'completed'}`);
    } catch (err) {
      logger.error({ ...fields, error: (err as Error).message }, `could not resume run ${r.runId}: ${(err as Error).message}`);
    }
  }
  return resumed;
}
