import { reportRejection } from '../core/report-rejection.js';
import type { EnqueueOptions, QueueWorker, RunJobHandler, RunQueue, WorkOptions } from '../types/run-queue.js';
import type { Store } from '../types/storage/store.js';

/** Options of `EmbeddedRunQueue`. */
export interface EmbeddedRunQueueOptions {
  /** Where the runs are (their records are the queue). */
  store: () => Promise<Store>;
  /** How often the store is looked at for due runs (other processes' submissions, delayed runs). Default 500 ms. */
  pollMs?: number;
  /** How often `running` runs are offered again (their worker may have died). Default 5 s. */
  recoverMs?: number;
  /** A job's handler failed. */
  onError?: (runId: string, err: unknown) => void;
}

/**
 * The zero-setup queue: the store's `queued` run records are the queue, a submission in this
 * process wakes the worker at once, and any process on the same database finds due runs within
 * `pollMs`. `running` runs are offered again every `recoverMs` (and when the worker starts) so a
 * run whose process died continues; the handler leaves alone those a live worker holds.
 */
export class EmbeddedRunQueue implements RunQueue {
  readonly kind = 'embedded' as const;
  private readonly workers = new Set<EmbeddedWorker>();

  constructor(private readonly options: EmbeddedRunQueueOptions) {}

  async enqueue(_runId: string, options: EnqueueOptions = {}): Promise<void> {
    const wake = () => {
      for (const w of this.workers) w.wake();
    };
    if (options.delayMs !== undefined && options.delayMs > 0) setTimeout(wake, options.delayMs).unref();
    else wake();
  }

  async work(handler: RunJobHandler, options: WorkOptions): Promise<QueueWorker> {
    const worker = new EmbeddedWorker(this.options, handler, options.concurrency);
    this.workers.add(worker);
    worker.start();
    return {
      stop: async () => {
        this.workers.delete(worker);
        await worker.stop();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((w) => w.stop()));
    this.workers.clear();
  }
}

class EmbeddedWorker {
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private recoverTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private scanning = false;
  private again = false;

  constructor(
    private readonly options: EmbeddedRunQueueOptions,
    private readonly handler: RunJobHandler,
    private readonly concurrency: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 500);
    this.timer.unref();
    this.recoverTimer = setInterval(
      () => void this.scan('running').catch(reportRejection('the run queue scan')),
      this.options.recoverMs ?? 5000,
    );
    this.recoverTimer.unref();
    void this.scan('running')
      .then(() => this.wake())
      .catch(reportRejection('the run queue scan'));
  }

  wake(): void {
    if (this.scanning) this.again = true;
    else void this.scan('queued').catch(reportRejection('the run queue scan'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.recoverTimer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Takes due runs with `status` up to the free slots. */
  private async scan(status: 'queued' | 'running'): Promise<void> {
    if (status === 'queued') this.scanning = true;
    try {
      do {
        this.again = false;
        const free = this.concurrency - this.inFlight.size;
        if (this.stopped || free <= 0) return;
        const store = await this.options.store();
        const runs = await store.backgroundRuns.list({ status, due: true, limit: free + this.inFlight.size });
        for (const r of runs) if (this.inFlight.size < this.concurrency && !this.inFlight.has(r.runId)) this.dispatch(r.runId);
      } while (this.again);
    } catch (err) {
      this.options.onError?.('', err);
    } finally {
      if (status === 'queued') this.scanning = false;
    }
  }

  private dispatch(runId: string): void {
    const job = this.handler(runId)
      .catch((err: unknown) => this.options.onError?.(runId, err))
      .finally(() => {
        this.inFlight.delete(runId);
        this.wake();
      });
    this.inFlight.set(runId, job);
  }
}
