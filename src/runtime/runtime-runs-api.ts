import { hostname } from 'node:os';

import type { QueueConfig, ScheduleConfig, StorageConfig } from '../config/corvid-config.js';
import { BackgroundRuns } from '../durable/background-runs.js';
import type { RunsRuntime } from '../durable/runtime-runs.js';
import type { RunQueue } from '../types/run-queue.js';

/** The runtime's `runs` and what closes its queue. */
export interface RuntimeRunsApi {
  runs: BackgroundRuns;
  close(): Promise<void>;
}

/**
 * `runtime.runs` for a config: the queue of `queue:` (embedded in the store by default; the
 * postgres queue defaults to `storage.url` and, in it, to the schema `<storage.schema>_queue`), opened — and its library loaded — on first use.
 */
export function runtimeRunsApi(
  runtime: RunsRuntime,
  config: { queue?: QueueConfig; storage?: StorageConfig; schedules?: Record<string, ScheduleConfig> },
): RuntimeRunsApi {
  let opening: Promise<RunQueue> | undefined;
  const q = config.queue ?? { backend: 'embedded' as const, concurrency: 4 };
  const queue = () =>
    (opening ??= import('../queue/open-run-queue.js').then((m) =>
      m.openRunQueue({
        backend: q.backend,
        url: q.url ?? (q.backend === 'postgres' && config.storage?.driver === 'postgres' ? config.storage.url : undefined),
        prefix: q.prefix,
        schema: q.schema ?? (q.backend === 'postgres' && config.storage?.schema ? `${config.storage.schema}_queue` : undefined),
        visibilityTimeoutS: q.visibilityTimeoutS,
        ...(q.eventsTtlS !== undefined ? { eventsTtlSeconds: q.eventsTtlS } : {}),
        store: () => runtime.store(),
      }),
    ));
  const runs = new BackgroundRuns({
    runtime,
    queue,
    worker: `${hostname()}/${process.pid}`,
    concurrency: q.concurrency,
    schedules: config.schedules,
  });
  return {
    runs,
    close: async () => {
      const o = opening;
      opening = undefined;
      if (o) await o.then((x) => x.close()).catch(() => undefined);
    },
  };
}
