/**
 * RunScheduler on the real clock with a cron of every second: ticks are submitted with the tick's
 * run id, a conflicting submission (another process had the tick) is no error, `missed: run_once`
 * submits the latest past tick at start, and set/remove/list work while it runs.
 */
import { describe, expect, it } from 'vitest';

import { RunScheduler, scheduledRunId } from '../../src/durable/run-scheduler.js';
import { StorageError } from '../../src/errors/storage-error.js';

describe('RunScheduler', () => {
  it('submits each tick with its run id; run_once submits the missed tick at start; conflicts are no errors', async () => {
    const submitted: string[] = [];
    const errors: string[] = [];
    const t0 = Date.now();
    const scheduler = new RunScheduler({
      schedules: { every: { agent: 'helper', input: 'tick', cron: '* * * * * *', missed: 'run_once' } },
      submit: async (_s, tick) => {
        if (submitted.includes(tick.runId)) throw new StorageError('exists', { kind: 'conflict' });
        submitted.push(tick.runId);
      },
      onError: (name, err) => errors.push(`${name}: ${(err as Error).message}`),
    });
    expect(scheduler.list()[0]).toMatchObject({ name: 'every', cron: '* * * * * *' });
    expect(scheduler.list()[0].nextRunAt!.getTime()).toBeGreaterThan(t0 - 1000);
    scheduler.start();
    // The missed tick: the second before start.
    await expect.poll(() => submitted.length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect(Number(submitted[0].split('_').at(-1))).toBeLessThanOrEqual(Math.floor(t0 / 1000) + 1);
    await expect.poll(() => submitted.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    scheduler.stop();
    expect(new Set(submitted).size).toBe(submitted.length);
    expect(submitted.every((id) => /^run_sch_every_\d+$/.test(id))).toBe(true);
    expect(errors).toEqual([]);
    expect(scheduledRunId('every', new Date(1_700_000_000_500))).toBe('run_sch_every_1700000000');
  }, 30_000);

  it('set() follows a new schedule at once, remove() stops it, bad input is a clear ConfigError', async () => {
    const submitted: string[] = [];
    const scheduler = new RunScheduler({ submit: async (_s, tick) => void submitted.push(tick.runId) });
    scheduler.start();
    scheduler.set('ping', { agent: 'helper', input: 'ping', cron: '* * * * * *' });
    await expect.poll(() => submitted.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(scheduler.remove('ping')).toBe(true);
    const n = submitted.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(submitted.length).toBe(n);
    expect(() => scheduler.set('bad', { agent: 'helper', input: 'x', cron: '61 * * * *' })).toThrow(
      /invalid cron expression "61 \* \* \* \*"/,
    );
    expect(() => scheduler.set('tz', { agent: 'helper', input: 'x', cron: '@daily', timezone: 'Nowhere/City' })).toThrow(
      /unknown time zone/,
    );
    expect(() => scheduler.set('1bad', { agent: 'helper', input: 'x', cron: '@daily' })).toThrow(/schedule name "1bad"/);
    scheduler.stop();
  }, 30_000);
});
