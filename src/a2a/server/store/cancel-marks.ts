import type { StateStore } from '../../../types/storage/state.js';

/**
 * Cancellations passed between server instances that share a store: the instance that receives
 * `tasks/cancel` for a task running elsewhere leaves a mark, and the instance running it looks for
 * marks of its running tasks (one query for all of them) and stops their runs.
 */
export interface CancelMarks {
  /** Records that `taskId` was canceled through this instance. */
  mark(taskId: string): Promise<void>;
  /** Which of `running` (tasks running here) were canceled elsewhere; their marks are removed. */
  take(running: ReadonlySet<string>): Promise<string[]>;
}

/** The state key prefix of an agent's cancel marks (app scope). */
export function cancelMarkPrefix(agent: string): string {
  return `a2a/cancel/${agent}/`;
}

/**
 * `CancelMarks` in Corvid's key-value state (app scope, keys `a2a/cancel/<agent>/<taskId>`).
 * Marks of tasks that ran nowhere (finished meanwhile, or their instance stopped) are dropped
 * once older than `maxAgeMs` (default 10 minutes).
 */
export class StoreCancelMarks implements CancelMarks {
  private readonly prefix: string;

  constructor(
    private readonly state: StateStore,
    agent: string,
    private readonly maxAgeMs = 10 * 60_000,
  ) {
    this.prefix = cancelMarkPrefix(agent);
  }

  async mark(taskId: string): Promise<void> {
    await this.state.set('app', this.prefix + taskId, { canceledAt: new Date().toISOString() });
  }

  async take(running: ReadonlySet<string>): Promise<string[]> {
    const marks = await this.state.list('app', { prefix: this.prefix });
    const found: string[] = [];
    const oldest = Date.now() - this.maxAgeMs;
    for (const m of marks) {
      const taskId = m.key.slice(this.prefix.length);
      const mine = running.has(taskId);
      if (mine) found.push(taskId);
      if (mine || m.updatedAt.getTime() < oldest) await this.state.delete('app', m.key);
    }
    return found;
  }
}
