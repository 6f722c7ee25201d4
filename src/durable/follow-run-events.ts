import { setTimeout as sleep } from 'node:timers/promises';

import type { RunEventWakeups } from '../types/run-queue.js';
import type { RunEventLog, RunEventRecord } from '../types/storage/run-events.js';
import type { Store } from '../types/storage/store.js';

/** Options of `followRunEvents`. */
export interface FollowOptions {
  /** Start after this seq (a reader's last seen). Default 0: from the start. */
  after?: number;
  /** How often the log is read while nothing new came. Default 100 ms (1 s with wake-ups). */
  pollMs?: number;
  /** The log to read; default the store's `runEvents`. */
  log?: RunEventLog;
  /** Wake-ups that end a wait as soon as events are appended. */
  wakeups?: RunEventWakeups;
  signal?: AbortSignal;
}

/**
 * A run's events from its log, from any process sharing the store: those after `after`, then the
 * new ones as they are written, until the `done` event (which it yields last) or `signal`. A run
 * that paused for approvals has a `done` `{status: "paused"}`: the log continues after it once the
 * approvals are answered and a worker resumes the run, so the stream ends there only while the
 * run is still paused.
 */
export async function* followRunEvents(store: Store, runId: string, options: FollowOptions = {}): AsyncGenerator<RunEventRecord> {
  let after = options.after ?? 0;
  const log = options.log ?? store.runEvents;
  const wakeups = options.wakeups;
  const pollMs = options.pollMs ?? (wakeups ? 1000 : 100);
  let pausedAt = false;
  while (!options.signal?.aborted) {
    const events = await log.read(runId, { after, limit: 1000 });
    for (const e of events) {
      after = e.seq;
      yield e;
      pausedAt = e.type === 'done' && isPausedDone(e.data);
      if (e.type === 'done' && !pausedAt) return;
    }
    if (events.length === 1000) continue;
    // A run cancelled while queued never had a worker: its record alone says it ended.
    if (events.length === 0 && (after === 0 || pausedAt)) {
      const run = await store.backgroundRuns.get(runId);
      if (run === undefined || run.status === 'cancelled') return;
      // Paused and not taken up again (or final without more events): nothing more will come.
      if (pausedAt && (run.status === 'paused' || run.status === 'completed' || run.status === 'failed')) {
        if ((await log.lastSeq(runId)) <= after) return;
      }
    }
    if (wakeups) await wakeups.wait(runId, { timeoutMs: pollMs, signal: options.signal, after });
    else await sleep(pollMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}

function isPausedDone(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { status?: unknown }).status === 'paused';
}
