import { hostname } from 'node:os';

import type { Queue, Worker } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';

import { reportRejection } from '../core/report-rejection.js';
import { loadPeer } from '../errors/load-peer.js';
import { StorageError } from '../errors/storage-error.js';
import { maskSecrets, maskUrl } from '../storage/shared/index.js';
import type { EnqueueOptions, QueueWorker, RunJobHandler, RunQueue, WorkOptions } from '../types/run-queue.js';
import type { Store } from '../types/storage/store.js';
import { RedisRunEventLog } from './redis-run-event-log.js';
import { RedisRunEventWakeups } from './redis-run-event-wakeups.js';

type BullMq = typeof import('bullmq');
type RedisClass = typeof import('ioredis').Redis;

/** Options of `openRedisRunQueue`. */
export interface RedisRunQueueOptions {
  /** redis:// or rediss:// URL. */
  url: string;
  /** Key prefix of the queue (`<prefix>:runs:*`) and the event streams (`<prefix>:run:<id>:events`). Default `corvid`. */
  prefix?: string;
  /** A job whose worker stopped renewing its lock (killed) goes to another worker after about this long. Default 30 s. */
  visibilityTimeoutMs?: number;
  /** A finished run's event stream expires this long after its `done` event. Default 7 days. */
  eventsTtlSeconds?: number;
  /**
   * The store of the runs: when a worker starts, its `queued` and `running` runs are queued again
   * (a job id is queued once, so only those whose job Redis lost are added).
   */
  store?: () => Promise<Store>;
  /** Retries of a job whose handler threw (the run is held by another worker, the store failed). Default 12. */
  attempts?: number;
}

const QUEUE_NAME = 'runs';

/** Loads BullMQ and ioredis, only when the redis queue is used. */
async function loadLibraries(): Promise<{ bullmq: BullMq; Redis: RedisClass }> {
  const [bullmq, ioredis] = await loadPeer({
    packages: ['bullmq', 'ioredis'],
    feature: 'queue.backend redis',
    load: () => Promise.all([import('bullmq'), import('ioredis')]),
  });
  return { bullmq, Redis: ioredis.Redis ?? (ioredis as unknown as { default: RedisClass }).default };
}

/**
 * Opens the Redis queue (BullMQ) and checks that Redis answers.
 * @throws MissingPeerError when bullmq / ioredis are not installed; StorageError `unavailable` when Redis does not answer
 */
export async function openRedisRunQueue(options: RedisRunQueueOptions): Promise<RedisRunQueue> {
  const libs = await loadLibraries();
  const location = maskUrl(options.url);
  const client = new libs.Redis(options.url, { maxRetriesPerRequest: 2, connectTimeout: 5000 });
  client.on('error', () => undefined);
  try {
    await client.ping();
  } catch (err) {
    client.disconnect();
    throw new StorageError(`Cannot reach Redis at ${location}: ${maskSecrets((err as Error).message)}`, {
      kind: 'unavailable',
      location,
      cause: err,
    });
  }
  return new RedisRunQueue(libs, client, options);
}

/**
 * The Redis queue: BullMQ carries the run ids (job id = run id, so a run is queued once), delays
 * them, retries a job whose handler threw with exponential backoff (failed jobs stay in BullMQ's
 * failed set, the dead letters), and hands the job of a worker that died (its lock not renewed
 * for `visibilityTimeoutMs`) to another worker. The runs' events are Redis Streams (`events`),
 * and stream readers wait on them with a blocking XREAD (`wakeups`).
 */
export class RedisRunQueue implements RunQueue {
  readonly kind = 'redis' as const;
  readonly events: RedisRunEventLog;
  readonly wakeups: RedisRunEventWakeups;
  private readonly queue: Queue;
  private readonly prefix: string;
  private readonly workers = new Set<{ worker: Worker; connection: Redis }>();
  private closing: Promise<void> | undefined;
  private reconciled = false;

  constructor(
    private readonly libs: { bullmq: BullMq; Redis: RedisClass },
    private readonly client: Redis,
    private readonly options: RedisRunQueueOptions,
  ) {
    this.prefix = options.prefix ?? 'corvid';
    this.events = new RedisRunEventLog({
      client,
      prefix: this.prefix,
      ttlSeconds: options.eventsTtlSeconds ?? 7 * 24 * 3600,
      location: maskUrl(options.url),
    });
    this.wakeups = new RedisRunEventWakeups({ client, log: this.events });
    this.queue = new libs.bullmq.Queue(QUEUE_NAME, {
      connection: client,
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: options.attempts ?? 12,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 24 * 3600, count: 10_000 },
        removeOnFail: false,
      },
    });
    this.queue.on('error', () => undefined);
  }

  async enqueue(runId: string, options: EnqueueOptions = {}): Promise<void> {
    const delay = options.delayMs !== undefined && options.delayMs > 0 ? Math.ceil(options.delayMs) : undefined;
    try {
      await this.queue.add('run', { runId }, { jobId: runId, ...(delay !== undefined ? { delay } : {}) });
    } catch (err) {
      const location = maskUrl(this.options.url);
      throw new StorageError(`Could not queue run ${runId} on Redis at ${location}: ${maskSecrets((err as Error).message)}`, {
        kind: 'unavailable',
        location,
        cause: err,
      });
    }
  }

  async work(handler: RunJobHandler, options: WorkOptions): Promise<QueueWorker> {
    const visibility = Math.max(1000, this.options.visibilityTimeoutMs ?? 30_000);
    // A worker's blocking reads need a connection that retries for ever (BullMQ's requirement).
    const connection = new this.libs.Redis(this.options.url, { maxRetriesPerRequest: null } satisfies RedisOptions);
    connection.on('error', () => undefined);
    const worker = new this.libs.bullmq.Worker<{ runId: string }>(
      QUEUE_NAME,
      async (job) => {
        await handler(job.data.runId ?? job.id!);
      },
      {
        connection,
        prefix: this.prefix,
        name: `${hostname()}/${process.pid}`,
        concurrency: options.concurrency,
        lockDuration: visibility,
        stalledInterval: Math.max(500, Math.floor(visibility / 2)),
        // A run whose workers keep dying is still offered again (its checkpoints keep the progress).
        maxStalledCount: 10,
        drainDelay: 5,
      },
    );
    worker.on('error', () => undefined);
    const entry = { worker, connection };
    this.workers.add(entry);
    await worker.waitUntilReady();
    if (!this.reconciled) {
      this.reconciled = true;
      void this.requeueStored().catch(reportRejection('queueing the stored runs again'));
    }
    let stopping: Promise<void> | undefined;
    return {
      stop: () =>
        (stopping ??= (async () => {
          this.workers.delete(entry);
          await closeWorker(entry);
        })()),
    };
  }

  /** Queues the store's unfinished runs again: a job lost by Redis (flushed, restored) is added back; the others are there already. */
  private async requeueStored(): Promise<void> {
    if (!this.options.store) return;
    const store = await this.options.store();
    for (const status of ['queued', 'running'] as const) {
      for (const run of await store.backgroundRuns.list({ status, limit: 1000 })) {
        if (this.closing) return;
        await this.enqueue(run.runId, { delayMs: run.runAt.getTime() - Date.now() });
      }
    }
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      const workers = [...this.workers];
      this.workers.clear();
      await Promise.allSettled(workers.map(closeWorker));
      this.wakeups.close();
      await this.queue.close().catch(() => undefined);
      await this.client.quit().catch(() => this.client.disconnect());
    })());
  }
}

/** Lets the worker's running jobs finish, then closes it and its connection. */
async function closeWorker(entry: { worker: Worker; connection: Redis }): Promise<void> {
  await entry.worker.close().catch(() => undefined);
  await entry.connection.quit().catch(() => entry.connection.disconnect());
}
