import { type Message, messageText } from '../types/message.js';
import type { BackgroundRunOutcome } from '../types/storage/background-runs.js';
import type { RunEventLog } from '../types/storage/run-events.js';
import type { Store } from '../types/storage/store.js';
import type { BackgroundResult } from './background-result.js';
import { parseRunState } from './run-state-v1.js';

/** How a submitted run ended whose worker died after the run completed but before its record said so. */
export interface CompletedRunOutcome {
  outcome: BackgroundRunOutcome;
  /** The log has its `done` event already. */
  logged: boolean;
}

/**
 * The outcome of submitted run `runId` when its durable run has completed already (its last
 * checkpoint is `completed`): the log's `done` event when the worker wrote it, else the answer
 * from the checkpoint (or, for a session run, the session). Undefined when the run has not completed.
 */
export async function completedRunOutcome(store: Store, log: RunEventLog, runId: string): Promise<CompletedRunOutcome | undefined> {
  const cp = await store.checkpoints.latest(runId);
  if (cp === undefined || cp.status !== 'completed') return undefined;
  const last = await log.lastSeq(runId);
  const [done] = last > 0 ? await log.read(runId, { after: last - 1, limit: 1 }) : [];
  if (done?.type === 'done') {
    const d = done.data as { status?: BackgroundRunOutcome['status']; result?: unknown; error?: BackgroundRunOutcome['error'] };
    if (d.status !== undefined) return { logged: true, outcome: { status: d.status, result: d.result, error: d.error } };
  }
  const s = parseRunState(cp.state, runId);
  const messages: Message[] =
    cp.sessionId !== undefined ? await store.sessions.messages(cp.sessionId) : (s.messages ?? []).slice(s.baseLength ?? 0);
  const answer = messages.findLast((m) => m.role === 'assistant');
  const result: BackgroundResult = {
    text: answer ? messageText(answer) : '',
    agent: s.agent,
    usage: s.usage,
    steps: s.step,
    finishReason: 'stop',
    durationMs: Math.max(0, cp.createdAt.getTime() - Date.parse(s.startedAt)),
  };
  if (cp.sessionId !== undefined) result.sessionId = cp.sessionId;
  return { logged: false, outcome: { status: 'completed', result } };
}
