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
  /** The store of the runs and their events. */
  store: () => Promise<Store>;
  /** A job's handler failed (logged by the caller). */
  onError?: (runId: string, err: unknown) => void;
}

/** Opens the queue of `options.backend`; the postgres and redis ones load their library only now. */
export async function openRunQueue(options: RunQueueOptions): Promise<RunQueue> {
  switch (options.backend) {
    case 'embedded':
      return new EmbeddedRunQueue({ store: options.store, onError: options.onError });
    case 'postgres':
    case 'redis':
      throw new ConfigError(`queue.backend ${options.backend} is not available in this version of Corvid; use embedded`);
    default: {
      const never: never = options.backend;
      return never;
    }
  }
}
