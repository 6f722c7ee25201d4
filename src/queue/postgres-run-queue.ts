import type PgBoss from 'pg-boss';

import { ConfigError } from '../errors/config-error.js';
import { loadPeer } from '../errors/load-peer.js';
import { loadPg } from '../storage/postgres/index.js';
import type { EnqueueOptions, QueueWorker, RunJobHandler, RunQueue, WorkOptions } from '../types/run-queue.js';
import { PgNotifyListener } from './pg-notify-listener.js';
import { PostgresRunEventWakeups } from './postgres-run-event-wakeups.js';

/** Options of `PostgresRunQueue.open`. */
export interface PostgresRunQueueOptions {
  /** The database, `postgres://…`. */
  url: string;
  /** pg-boss's tables live in this schema (created when missing). Default `corvid_queue`. */
  schema?: string;
  /**
   * Seconds a taken job stays invisible: after it, a job whose worker died (or one still running)
   * is offered again, and a job that failed waits as long before its next try. Default 30.
   */
  visibilityTimeoutS?: number;
  /** How often an idle worker looks for due jobs (delayed and retried ones); new jobs wake it at once. Default 1000 ms. */
  pollMs?: number;
  /** A job's handler failed, or the queue's connection did. */
  onError?: (runId: string, err: unknown) => void;
}

/** The queue of runs and where the jobs of no try left end up. */
const QUEUE = 'corvid_runs';
const DEAD_LETTERS = 'corvid_runs_dead';
/** Jobs are retried for a day: a run held by a live worker keeps its job coming back until the run ends. */
const RETRY_FOR_S = 24 * 60 * 60;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

type PgBossClass = typeof PgBoss;

async function loadPgBoss(): Promise<PgBossClass> {
  const mod = (await loadPeer({
    packages: 'pg-boss',
    install: 'pg-boss@10',
    feature: 'queue.backend postgres',
    load: () => import('pg-boss'),
  })) as unknown as { default?: PgBossClass };
  return mod.default ?? (mod as unknown as PgBossClass);
}

/**
 * The `postgres` run queue, on pg-boss: a job per run id (one queued job per run: the queue's
 * `short` policy with the run id as singleton key), delayed runs with `startAfter`, and pg-boss's
 * expiry as the visibility timeout — a job whose worker was killed is failed by pg-boss's
 * maintenance once it expires and retried on another worker, which resumes the run from its
 * checkpoints. A failed job (the run is held by a live worker elsewhere, the store was down) is
 * retried after the visibility timeout, for a day, then moved to the `corvid_runs_dead` queue.
 * New jobs wake workers in every process at once through NOTIFY; run event readers are woken
 * the same way (`wakeups`).
 */
export class PostgresRunQueue implements RunQueue {
  readonly kind = 'postgres' as const;
  readonly wakeups: PostgresRunEventWakeups;
  private readonly workers = new Set<PostgresWorker>();
  private readonly jobsChannel: string;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly boss: PgBoss,
    private readonly listener: PgNotifyListener,
    private readonly options: PostgresRunQueueOptions,
  ) {
    this.jobsChannel = `${options.schema ?? 'corvid_queue'}_jobs`;
    this.wakeups = new PostgresRunEventWakeups(listener, (channel, payload) => this.send(channel, payload));
    listener.on(this.jobsChannel, () => this.wakeWorkers());
  }

  /**
   * Connects, installs pg-boss's tables in the schema (or migrates them) and creates the queue.
   * @throws ConfigError when pg-boss is not installed or the schema is not a plain identifier
   */
  static async open(options: PostgresRunQueueOptions): Promise<PostgresRunQueue> {
    const schema = options.schema ?? 'corvid_queue';
    if (!IDENTIFIER.test(schema))
      throw new ConfigError(`queue.schema "${schema}" must be a plain identifier (letters, digits, _; at most 50)`);
    const visibility = Math.max(1, Math.round(options.visibilityTimeoutS ?? 30));
    const PgBossCtor = await loadPgBoss();
    const boss = new PgBossCtor({
      connectionString: options.url,
      schema,
      max: 4,
      application_name: 'corvid-queue',
      schedule: false,
      // Expired jobs are found by maintenance: often enough that a dead worker's job is offered again soon after it expires.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(visibility / 3))),
    });
    boss.on('error', (err) => options.onError?.('', err));
    const listener = new PgNotifyListener(options.url, (err) => options.onError?.('', err));
    // Processes starting together would install the schema and create the queues at the same time
    // (DDL on pg-boss's partitioned job table deadlocks): one at a time, under an advisory lock.
    const setup = await setupLock(options.url, schema);
    try {
      await boss.start();
      const config = {
        policy: 'short' as const,
        expireInSeconds: visibility,
        retryLimit: Math.ceil(RETRY_FOR_S / visibility),
        retryDelay: visibility,
        retryBackoff: false,
        deadLetter: DEAD_LETTERS,
      };
      await ensureQueue(boss, DEAD_LETTERS, {});
      await ensureQueue(boss, QUEUE, config);
      await setup.release();
      await listener.start();
    } catch (err) {
      await setup.release();
      await listener.close();
      await boss.stop({ graceful: false }).catch(() => undefined);
      throw err;
    }
    return new PostgresRunQueue(boss, listener, { ...options, schema });
  }

  async enqueue(runId: string, options: EnqueueOptions = {}): Promise<void> {
    const delayed = options.delayMs !== undefined && options.delayMs > 0;
    await this.boss.send(QUEUE, { runId }, { singletonKey: runId, ...(delayed ? { startAfter: options.delayMs! / 1000 } : {}) });
    if (!delayed) {
      this.wakeWorkers();
      await this.send(this.jobsChannel, '').catch((err: unknown) => this.options.onError?.(runId, err));
    }
  }

  async work(handler: RunJobHandler, options: WorkOptions): Promise<QueueWorker> {
    const worker = new PostgresWorker(this.boss, handler, options.concurrency, this.options);
    this.workers.add(worker);
    worker.start();
    return {
      stop: async () => {
        this.workers.delete(worker);
        await worker.stop();
      },
    };
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await Promise.all([...this.workers].map((w) => w.stop()));
      this.workers.clear();
      await this.listener.close();
      await this.boss.stop({ graceful: false }).catch(() => undefined);
    })());
  }

  private wakeWorkers(): void {
    for (const w of this.workers) w.wake();
  }

  private async send(channel: string, payload: string): Promise<void> {
    await this.boss.getDb().executeSql('SELECT pg_notify($1, $2)', [channel, payload]);
  }
}

/** Holds a session advisory lock named after the schema on a connection of its own until `release()`. */
async function setupLock(url: string, schema: string): Promise<{ release(): Promise<void> }> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url, application_name: 'corvid-queue-setup' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`corvid_queue_setup:${schema}`]);
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  let released: Promise<void> | undefined;
  return { release: () => (released ??= client.end().catch(() => undefined)) };
}

/** Creates the queue when missing (another process may do it at the same moment) and applies `config`. */
async function ensureQueue(boss: PgBoss, name: string, config: Omit<PgBoss.Queue, 'name'>): Promise<void> {
  if ((await boss.getQueue(name)) === null) {
    try {
      await boss.createQueue(name, { name, ...config });
      return;
    } catch (err) {
      if ((await boss.getQueue(name)) === null) throw err;
    }
  }
  const current = (await boss.getQueue(name)) as Record<string, unknown> | null;
  if (current && Object.entries(config).some(([k, v]) => current[k] !== v)) await boss.updateQueue(name, { name, ...config });
}

/** Takes jobs up to its free slots: when woken (a new job, a job done) and every `pollMs`. */
class PostgresWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private running: Promise<void> | undefined;
  private sleeping: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly boss: PgBoss,
    private readonly handler: RunJobHandler,
    private readonly concurrency: number,
    private readonly options: PostgresRunQueueOptions,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  wake(): void {
    this.woken = true;
    this.sleeping?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
    await Promise.allSettled([...this.inFlight]);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      const free = this.concurrency - this.inFlight.size;
      let took = 0;
      if (free > 0) {
        try {
          const jobs = await this.boss.fetch<{ runId?: string }>(QUEUE, { batchSize: free });
          for (const job of jobs) this.dispatch(job.id, String(job.data?.runId ?? ''));
          took = jobs.length;
        } catch (err) {
          this.options.onError?.('', err);
        }
      }
      // Woken meanwhile, or more jobs may be waiting for the slots still free: look again now.
      if (this.stopped || this.woken || (took > 0 && this.inFlight.size < this.concurrency)) continue;
      await this.sleep(this.options.pollMs ?? 1000);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.sleeping = () => {
        this.sleeping = undefined;
        done();
      };
    });
  }

  private dispatch(jobId: string, runId: string): void {
    const job = (async () => {
      try {
        await this.handler(runId);
        await this.boss.complete(QUEUE, jobId);
      } catch (err) {
        const e = err as { name?: string; message?: string };
        // A run held by a live worker elsewhere is the expected case of a retried job, not an error.
        if (e.name !== 'RunHeldElsewhereError') this.options.onError?.(runId, err);
        await this.boss.fail(QUEUE, jobId, { name: e.name, message: e.message ?? String(err) }).catch(() => undefined);
      }
    })().finally(() => {
      this.inFlight.delete(job);
      this.wake();
    });
    this.inFlight.add(job);
  }
}
