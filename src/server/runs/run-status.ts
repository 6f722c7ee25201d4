import { deadLocalHolder, runLeaseName } from '../../durable/run-lease.js';
import type { RunRecord } from '../../types/storage/runs.js';
import type { Store } from '../../types/storage/store.js';
import type { ChatService } from '../chat/chat-service.js';

/** A run's status as the API shows it: the stored one, or `interrupted` for a `running` run nobody runs. */
export type RunViewStatus = RunRecord['status'] | 'interrupted';

/**
 * Where a stored run stands: a run stored as `running` that no turn of this process runs and
 * whose lease nobody holds (or a process of this machine that is gone held) was interrupted — a
 * crash, a kill — and waits to be resumed.
 */
export async function runStatus(store: Store, run: RunRecord, chat: ChatService): Promise<RunViewStatus> {
  if (run.status !== 'running' || chat.isRunning(run.runId)) return run.status;
  const lease = await store.leases.get(runLeaseName(run.runId));
  return lease === undefined || deadLocalHolder(lease.holder) ? 'interrupted' : 'running';
}
