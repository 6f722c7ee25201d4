import type { RunEventWakeups } from '../types/run-queue.js';
import type { PgNotifyListener } from './pg-notify-listener.js';

/** The channel of run event wake-ups; the payload is the run id. */
export const RUN_EVENTS_CHANNEL = 'corvid_run_events';

/** A run whose reader waited lately: a notification arriving between its reads is kept for its next wait. */
const RECENT_MS = 5000;

/**
 * Run event wake-ups over Postgres LISTEN/NOTIFY: the writer's `notify(runId)` sends
 * `NOTIFY corvid_run_events, '<runId>'`; `wait(runId)` ends on such a notification (received on
 * the process's one listening connection), on its timeout or on its signal. Readers still read
 * the events from the store; a lost notification only costs them the wait's timeout.
 */
export class PostgresRunEventWakeups implements RunEventWakeups {
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Runs read lately → a notification came while none of their readers was waiting. */
  private readonly recent = new Map<string, { at: number; missed: boolean }>();

  constructor(
    listener: PgNotifyListener,
    private readonly send: (channel: string, payload: string) => Promise<void>,
  ) {
    listener.on(RUN_EVENTS_CHANNEL, (runId) => this.received(runId));
  }

  async notify(runId: string): Promise<void> {
    await this.send(RUN_EVENTS_CHANNEL, runId);
  }

  wait(runId: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    const r = this.recent.get(runId);
    if (r?.missed) {
      r.missed = false;
      r.at = Date.now();
      return Promise.resolve();
    }
    if (options.signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      let set = this.waiters.get(runId);
      if (set === undefined) this.waiters.set(runId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(runId) === set) this.waiters.delete(runId);
        this.recent.set(runId, { at: Date.now(), missed: false });
        resolve();
      };
      const timer = setTimeout(done, options.timeoutMs);
      options.signal?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  private received(runId: string): void {
    const set = this.waiters.get(runId);
    if (set !== undefined) {
      for (const done of [...set]) done();
      return;
    }
    const r = this.recent.get(runId);
    if (r === undefined) return;
    if (Date.now() - r.at > RECENT_MS) this.recent.delete(runId);
    else r.missed = true;
    if (this.recent.size > 1000) {
      const cutoff = Date.now() - RECENT_MS;
      for (const [id, v] of this.recent) if (v.at < cutoff) this.recent.delete(id);
    }
  }
}
