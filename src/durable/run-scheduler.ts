import { reportRejection } from '../core/report-rejection.js';
import { ConfigError } from '../errors/config-error.js';
import { StorageError } from '../errors/storage-error.js';
import type { ScheduleConfig } from '../types/schedule.js';
import { type CronTimes, cronTimes } from './cron-expression.js';

/** A schedule as `runs.schedules.list()` shows it. */
export interface ScheduleInfo extends ScheduleConfig {
  name: string;
  /** Its next tick from now; undefined when it never fires again. */
  nextRunAt?: Date;
}

/** What a tick does: submit the run with id `runId` (throwing StorageError `conflict` when another process did). */
export type SubmitTick = (schedule: ScheduleConfig & { name: string }, tick: { runId: string; at: Date }) => Promise<unknown>;

/** What `RunScheduler` is built from. */
export interface RunSchedulerOptions {
  /** The schedules it starts with (the config's `schedules:`). */
  schedules?: Record<string, ScheduleConfig>;
  submit: SubmitTick;
  /** A tick's run could not be submitted (the store is down, the agent is gone, …). */
  onError?: (schedule: string, err: unknown) => void;
}

/** The longest single timer: later ticks are waited for in steps (clock changes, suspended laptops). */
const MAX_WAIT_MS = 60_000;

/** The run id of schedule `name`'s tick at `at`: every process computes the same one. */
export function scheduledRunId(name: string, at: Date): string {
  return `run_sch_${name}_${Math.floor(at.getTime() / 1000)}`;
}

interface Entry {
  config: ScheduleConfig;
  times: CronTimes;
  next?: Date;
  timer?: NodeJS.Timeout;
}

/**
 * Submits runs on cron schedules. Every worker process runs one (`runs.work()` starts it); each
 * tick's run has a deterministic id (`run_sch_<name>_<epoch seconds>`), so whichever process
 * submits it first stores and queues it and the others' submissions conflict: one run per tick
 * across all processes, on every queue backend. A tick that passed while no process ran is
 * skipped, or with `missed: run_once` the latest one is submitted when the scheduler starts.
 */
export class RunScheduler {
  private readonly entries = new Map<string, Entry>();
  private users = 0;

  constructor(private readonly options: RunSchedulerOptions) {
    for (const [name, config] of Object.entries(options.schedules ?? {})) this.entries.set(name, entryOf(config));
  }

  /** The schedules with their next tick, by name. */
  list(): ScheduleInfo[] {
    const now = new Date();
    return [...this.entries.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, e]) => {
        const next = e.times.nextRun(now);
        return { name, ...e.config, ...(next ? { nextRunAt: next } : {}) };
      });
  }

  /** One schedule with its next tick; undefined when unknown. */
  get(name: string): ScheduleInfo | undefined {
    return this.list().find((s) => s.name === name);
  }

  /**
   * Adds or replaces schedule `name` in this process (a running scheduler follows it at once).
   * Other processes keep their own schedules: set it in each, or in the config's `schedules:`.
   * @throws ConfigError for a bad name, cron expression or time zone
   */
  set(name: string, config: Omit<ScheduleConfig, 'missed'> & { missed?: ScheduleConfig['missed'] }): ScheduleInfo {
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,59}$/.test(name))
      throw new ConfigError(`schedule name "${name}": start with a letter and use letters, digits, "_" and "-" (at most 60)`);
    const entry = entryOf({ ...config, missed: config.missed ?? 'skip' });
    this.stopEntry(name);
    this.entries.set(name, entry);
    if (this.users > 0) this.arm(name, entry);
    return this.get(name)!;
  }

  /** Removes schedule `name` from this process; false when it had none of that name. */
  remove(name: string): boolean {
    this.stopEntry(name);
    return this.entries.delete(name);
  }

  /** Starts submitting ticks (each `start` wants its `stop`). */
  start(): void {
    if (this.users++ > 0) return;
    for (const [name, entry] of this.entries) {
      if (entry.config.missed === 'run_once') {
        const [last] = entry.times.previousRuns(1, new Date());
        if (last !== undefined) void this.fire(name, entry.config, last).catch(reportRejection(`schedule ${name}`));
      }
      this.arm(name, entry);
    }
  }

  /** Stops submitting ticks once every `start` has its `stop`. */
  stop(): void {
    if (this.users === 0 || --this.users > 0) return;
    for (const name of this.entries.keys()) this.stopEntry(name);
  }

  private arm(name: string, entry: Entry, after = new Date()): void {
    const next = entry.times.nextRun(after);
    entry.next = next ?? undefined;
    if (next === null) return;
    this.wait(name, entry, next);
  }

  private wait(name: string, entry: Entry, next: Date): void {
    const ms = Math.min(Math.max(0, next.getTime() - Date.now()), MAX_WAIT_MS);
    entry.timer = setTimeout(() => {
      if (this.entries.get(name) !== entry) return;
      if (Date.now() < next.getTime()) return this.wait(name, entry, next);
      // The tick is due: the next one is looked for after it, then this one is submitted.
      this.arm(name, entry, new Date(Math.max(Date.now(), next.getTime())));
      void this.fire(name, entry.config, next).catch(reportRejection(`schedule ${name}`));
    }, ms);
    entry.timer.unref();
  }

  private async fire(name: string, config: ScheduleConfig, at: Date): Promise<void> {
    try {
      await this.options.submit({ name, ...config }, { runId: scheduledRunId(name, at), at });
    } catch (err) {
      // Another process submitted this tick first.
      if (err instanceof StorageError && err.kind === 'conflict') return;
      this.options.onError?.(name, err);
    }
  }

  private stopEntry(name: string): void {
    const e = this.entries.get(name);
    if (e?.timer !== undefined) clearTimeout(e.timer);
    if (e) e.timer = undefined;
  }
}

function entryOf(config: ScheduleConfig): Entry {
  return { config: { ...config }, times: cronTimes(config.cron, config.timezone) };
}
