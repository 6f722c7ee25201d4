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
  /** postgres: the schema of the queue's tables. Default `corvid_queue`. */
  schema?: string;
  /** postgres: seconds before a taken job is offered again (its worker died) and between tries. Default 30. */
  visibilityTimeoutS?: number;
  /** redis: a finished run's event stream expires this long after its end. Default 7 days. */
  eventsTtlSeconds?: number;
  /** The store of the runs and their events. */
  store: () => Promise<Store>;
  /** A job's handler failed (logged by the caller). */
  onError?: (runId: string, err: unknown) => void;
}

/**
 * Opens the queue of `options.backend`; the postgres and redis ones load their library only now.
 * @throws ConfigError for a postgres or redis queue without a url; MissingPeerError when its library is not installed
 */
export async function openRunQueue(options: RunQueueOptions): Promise<RunQueue> {
  switch (options.backend) {
    case 'embedded':
      return new EmbeddedRunQueue({ store: options.store, onError: options.onError });
    case 'postgres': {
      if (options.url === undefined)
        throw new ConfigError('queue.backend postgres needs queue.url (or storage on Postgres, whose url it then uses)');
      const { PostgresRunQueue } = await import('./postgres-run-queue.js');
      return PostgresRunQueue.open({
        url: options.url,
        schema: options.schema,
        visibilityTimeoutS: options.visibilityTimeoutS,
        onError: options.onError,
      });
    }
    case 'redis': {
      if (!options.url) throw new ConfigError('queue.backend redis needs queue.url, e.g. redis://localhost:6379');
      const { openRedisRunQueue } = await import('./redis-run-queue.js');
      return openRedisRunQueue({
        url: options.url,
        store: options.store,
        ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
        ...(options.visibilityTimeoutS !== undefined ? { visibilityTimeoutMs: options.visibilityTimeoutS * 1000 } : {}),
        ...(options.eventsTtlSeconds !== undefined ? { eventsTtlSeconds: options.eventsTtlSeconds } : {}),
      });
    }
    default: {
      const never: never = options.backend;
      return never;
    }
  }
}
