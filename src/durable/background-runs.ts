import { setTimeout as sleep } from 'node:timers/promises';

import type { Runnable } from '../core/runnable.js';
import type { EventSink } from '../types/events.js';
import type { QueueWorker, RunQueue } from '../types/run-queue.js';
import type { RunSubmitter, SubmitOptions } from '../types/run-submission.js';
import type { ScheduleConfig } from '../types/schedule.js';
import type { BackgroundRun } from '../types/storage/background-runs.js';
import { isFinalRunStatus } from '../types/storage/background-runs.js';
import type { RunEventRecord } from '../types/storage/run-events.js';
import { executeBackgroundRun } from './execute-background-run.js';
import { followRunEvents } from './follow-run-events.js';
import { RunScheduler } from './run-scheduler.js';
import type { RunsRuntime } from './runtime-runs.js';
import { durableRunId } from './start-durable-run.js';

export type { SubmitOptions } from '../types/run-submission.js';

/** Options of `runs.work()`. */
export interface WorkerOptions {
  /** Runs executed at once. Default: the queue config's `concurrency`, else 4. */
  concurrency?: number;
  /** Sees every event of every run this worker executes. */
  onEvent?: EventSink;
  /** A run failed to execute in a way the run's record cannot show (the store is gone, …). */
  onError?: (runId: string, err: unknown) => void;
  /** Submit the runs of `runs.schedules` on their ticks here too. Default true. */
  schedules?: boolean;
  /** A schedule's tick could not be submitted (an unknown agent, the store is down, …). */
  onScheduleError?: (schedule: string, err: unknown) => void;
}

/** What `BackgroundRuns` is built from. */
export interface BackgroundRunsOptions {
  runtime: RunsRuntime;
  /** The queue, opened on first use. */
  queue: () => Promise<RunQueue>;
  /** This process's name in run records. */
  worker: string;
  /** Default concurrency of `work()`. */
  concurrency?: number;
  /** The cron schedules (the config's `schedules:`). */
  schedules?: Record<string, ScheduleConfig>;
}

/**
 * Background runs: `submit()` (or `agent.submit()`) stores a run and queues it, answering at once with its id; a
 * worker (`work()`, `corvid worker`, `corvid serve`) runs it; `stream()` follows its events from
 * any process sharing the store; `get()` / `wait()` tell how it ended; `cancel()` stops it
 * wherever it runs. The runtime's `runs` (`runtime.runs`).
 * @example
 * const { runId } = await runtime.runs.submit('helper', 'Summarise the report');
 * for await (const e of runtime.runs.stream(runId)) console.log(e.seq, e.type);
 */
export class BackgroundRuns implements RunSubmitter {
  private scheduler: RunScheduler | undefined;
  private readonly scheduleErrors = new Set<(schedule: string, err: unknown) => void>();

  constructor(private readonly options: BackgroundRunsOptions) {}

  /**
   * The cron schedules (`schedules:` in the config): `list()` with each one's next tick, `set()`
   * and `remove()` in this process. Every worker (`work()`) submits their runs, one per tick
   * across all processes.
   */
  get schedules(): RunScheduler {
    return (this.scheduler ??= new RunScheduler({
      schedules: this.options.schedules,
      submit: (s, tick) => this.submit(s.agent, s.input, { runId: tick.runId, ...(s.session !== undefined ? { session: s.session } : {}) }),
      onError: (name, err) => {
        for (const f of this.scheduleErrors) f(name, err);
      },
    }));
  }

  /**
   * Stores a `queued` run of `agent` and queues it.
   * @throws ConfigError for an unknown agent
   */
  async submit(agent: string, input: string, options: SubmitOptions = {}): Promise<BackgroundRun> {
    const name = this.options.runtime.agent<Runnable>(agent).name;
    const store = await this.options.runtime.store();
    const now = Date.now();
    const wanted = options.runAt !== undefined ? options.runAt.getTime() - now : options.delayMs;
    const delayMs = wanted !== undefined && wanted > 0 ? wanted : undefined;
    const run = await store.backgroundRuns.create({
      runId: options.runId ?? durableRunId(),
      agent: name,
      input,
      ...(options.session !== undefined ? { sessionId: options.session } : {}),
      ...(options.owner !== undefined ? { owner: options.owner } : {}),
      ...(options.webhook !== undefined ? { webhook: options.webhook } : {}),
      ...(delayMs !== undefined ? { runAt: new Date(now + delayMs) } : {}),
    });
    await (await this.options.queue()).enqueue(run.runId, delayMs !== undefined ? { delayMs } : {});
    return run;
  }

  /**
   * Queues a run paused for approvals again once they are answered: a worker resumes it from its
   * checkpoint (the answers take effect) and its events continue the same log, after the paused
   * `done`. Undefined when the run is unknown or not paused (another answer queued it already).
   */
  async resumeQueued(runId: string): Promise<BackgroundRun | undefined> {
    const store = await this.options.runtime.store();
    const run = await store.backgroundRuns.requeue(runId);
    if (run !== undefined) await (await this.options.queue()).enqueue(runId);
    return run;
  }

  /** The run's record; undefined for an unknown id. */
  async get(runId: string): Promise<BackgroundRun | undefined> {
    return (await this.options.runtime.store()).backgroundRuns.get(runId);
  }

  /**
   * The run's record once it is final (or paused for approvals), or as it is after `timeoutMs`.
   * Undefined for an unknown id.
   */
  async wait(
    runId: string,
    options: { timeoutMs?: number; pollMs?: number; signal?: AbortSignal } = {},
  ): Promise<BackgroundRun | undefined> {
    const until = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const run = await this.get(runId);
      if (run === undefined || isFinalRunStatus(run.status) || run.status === 'paused' || Date.now() >= until) return run;
      if (options.signal?.aborted) return run;
      await sleep(Math.min(options.pollMs ?? 100, Math.max(1, until - Date.now())), undefined, { signal: options.signal }).catch(
        () => undefined,
      );
    }
  }

  /**
   * The run's events (`seq`, `type`, `data`) after `after` (default 0: from the first), live until
   * its `done` event, from any process sharing the store. A reader that lost its connection
   * passes the last `seq` it saw as `after` and misses nothing.
   */
  async *stream(runId: string, options: { after?: number; signal?: AbortSignal; pollMs?: number } = {}): AsyncGenerator<RunEventRecord> {
    const queue = await this.options.queue();
    yield* followRunEvents(await this.options.runtime.store(), runId, { ...options, log: queue.events, wakeups: queue.wakeups });
  }

  /** The events of the run stored so far (`seq` > `after`, at most `limit`, default 1000), without waiting for more. */
  async events(runId: string, options: { after?: number; limit?: number } = {}): Promise<RunEventRecord[]> {
    const log = (await this.options.queue()).events ?? (await this.options.runtime.store()).runEvents;
    return log.read(runId, options);
  }

  /**
   * Stops the run wherever it runs (its worker sees the flag within a fraction of a second); a
   * queued run is cancelled at once. Undefined for an unknown id; the record otherwise.
   */
  async cancel(runId: string): Promise<BackgroundRun | undefined> {
    return (await this.options.runtime.store()).backgroundRuns.requestCancel(runId);
  }

  /** Starts executing queued runs in this process. */
  async work(options: WorkerOptions = {}): Promise<QueueWorker> {
    const queue = await this.options.queue();
    const executor = {
      runtime: this.options.runtime,
      worker: this.options.worker,
      onEvent: options.onEvent,
      events: { log: queue.events, wakeups: queue.wakeups },
      requeue: (runId: string) => this.resumeQueued(runId),
    };
    const worker = await queue.work(
      async (runId) => {
        try {
          await executeBackgroundRun(executor, runId);
        } catch (err) {
          options.onError?.(runId, err);
          throw err;
        }
      },
      { concurrency: options.concurrency ?? this.options.concurrency ?? 4 },
    );
    if (options.schedules === false) return worker;
    const onScheduleError = options.onScheduleError;
    if (onScheduleError) this.scheduleErrors.add(onScheduleError);
    this.schedules.start();
    let stopped = false;
    return {
      stop: async () => {
        if (!stopped) {
          stopped = true;
          this.schedules.stop();
          if (onScheduleError) this.scheduleErrors.delete(onScheduleError);
        }
        await worker.stop();
      },
    };
  }
}
