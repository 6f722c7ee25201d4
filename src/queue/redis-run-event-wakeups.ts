import type { Redis } from 'ioredis';

import type { RunEventWakeups } from '../types/run-queue.js';
import type { RedisRunEventLog } from './redis-run-event-log.js';

/** Options of `RedisRunEventWakeups`. */
export interface RedisRunEventWakeupsOptions {
  /** Blocking reads run on duplicates of this connection. */
  client: Redis;
  log: RedisRunEventLog;
  /** Idle blocking connections kept for the next waiters. Default 4. */
  keepIdle?: number;
}

/**
 * Wake-ups for stream readers: a blocking XREAD on the run's stream, on a connection of its own
 * (taken from a small pool of idle ones), ended by the next XADD. `notify` has nothing to do.
 */
export class RedisRunEventWakeups implements RunEventWakeups {
  private readonly idle: Redis[] = [];
  private readonly busy = new Set<Redis>();
  private closed = false;

  constructor(private readonly options: RedisRunEventWakeupsOptions) {}

  async notify(): Promise<void> {}

  async wait(runId: string, options: { timeoutMs: number; signal?: AbortSignal; after?: number }): Promise<void> {
    if (this.closed || options.signal?.aborted) return;
    const timeoutMs = Math.max(1, Math.floor(options.timeoutMs));
    // After the reader's last seq: an event written since its read ends the wait at once.
    const from = options.after !== undefined ? `0-${Math.max(0, Math.floor(options.after))}` : '$';
    const conn = this.idle.pop() ?? this.connection();
    this.busy.add(conn);
    const onAbort = () => conn.disconnect();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let reusable = true;
    try {
      await conn.xread('BLOCK', timeoutMs, 'STREAMS', this.options.log.key(runId), from);
    } catch {
      reusable = false;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.busy.delete(conn);
      if (reusable && !this.closed && !options.signal?.aborted && this.idle.length < (this.options.keepIdle ?? 4)) this.idle.push(conn);
      else conn.disconnect();
    }
  }

  /** A new blocking connection (its errors end its read; they are not reported twice). */
  private connection(): Redis {
    const conn = this.options.client.duplicate({ maxRetriesPerRequest: 1 });
    conn.on('error', () => undefined);
    return conn;
  }

  /** Ends every blocking read and closes the connections. */
  close(): void {
    this.closed = true;
    for (const c of [...this.idle, ...this.busy]) c.disconnect();
    this.idle.length = 0;
    this.busy.clear();
  }
}
