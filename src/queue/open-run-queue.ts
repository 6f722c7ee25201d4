import { ConfigError } from '../errors/config-error.js';
import type { RunQueue, RunQueueKind } from '../types/run-queue.js';
import type { Store } from '../types/storage/store.js';
import { EmbeddedRunQueue } from './embedded-run-queue.js';

/** How to open a run queue (the runtime builds it from `queue:` and `storage:`). */
export interface RunQueueOptions {
  backend: RunQueueKind;
  /** postgres / redis URL. */
  url?: string;
  /** redis: key prefix. */
  prefix?: string;
  /** redis: a dead worker's job goes to another worker after about this long. Default 30 s. */
  visibilityTimeoutMs?: number;
  /** redis: a finished run's event stream expires this long after its end. Default 7 days. */
  eventsTtlSeconds?: number;
  /** The store of the runs and their events. */
  store: () => Promise<Store>;
  /** A job's handler failed (logged by the caller). */
  onError?: (runId: string, err: unknown) => void;
}

/** Opens the queue of `options.backend`; the redis one (and postgres) loads its library only now. */
export async function openRunQueue(options: RunQueueOptions): Promise<RunQueue> {
  switch (options.backend) {
    case 'embedded':
      return new EmbeddedRunQueue({ store: options.store, onError: options.onError });
    case 'redis': {
      if (!options.url) throw new ConfigError('queue.backend redis needs queue.url, e.g. redis://localhost:6379');
      const { openRedisRunQueue } = await import('./redis-run-queue.js');
      return openRedisRunQueue({
        url: options.url,
        store: options.store,
        ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
        ...(options.visibilityTimeoutMs !== undefined ? { visibilityTimeoutMs: options.visibilityTimeoutMs } : {}),
        ...(options.eventsTtlSeconds !== undefined ? { eventsTtlSeconds: options.eventsTtlSeconds } : {}),
      });
    }
    case 'postgres':
      throw new ConfigError(`queue.backend ${options.backend} is not available in this version of Corvid; use embedded`);
    default: {
      const never: never = options.backend;
      return never;
    }
  }
}
