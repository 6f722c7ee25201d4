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
  /** The store of the runs and their events. */
  store: () => Promise<Store>;
  /** A job's handler failed (logged by the caller). */
  onError?: (runId: string, err: unknown) => void;
}

/**
 * Opens the queue of `options.backend`; the postgres and redis ones load their library only now.
 * @throws ConfigError for a postgres queue without a url, or when its library is not installed
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
    case 'redis':
      throw new ConfigError(`queue.backend ${options.backend} is not available in this version of Corvid; use embedded`);
    default: {
      const never: never = options.backend;
      return never;
    }
  }
}
