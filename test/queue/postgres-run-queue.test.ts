/**
 * `PostgresRunQueue` (pg-boss) on the real Postgres, in a schema of its own: a run is queued once,
 * a delayed run waits, a job whose handler throws is retried after the visibility timeout, a job
 * of a stopped worker goes to another worker once it expires, and event wake-ups reach a reader
 * through LISTEN/NOTIFY.
 */
import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openRunQueue } from '../../src/queue/open-run-queue.js';
import type { PostgresRunQueue } from '../../src/queue/postgres-run-queue.js';
import type { Store } from '../../src/types/storage/store.js';

const PG_URL = process.env.CORVID_TEST_POSTGRES_URL;
const SKIP = PG_URL ? undefined : 'CORVID_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test; .ci/run sets it)';
if (SKIP) console.log(`[queue] postgres run queue tests skipped: ${SKIP}`);

const schema = `corvid_pgrq_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const noStore = () => Promise.reject(new Error('not used')) as Promise<Store>;

describe.skipIf(Boolean(SKIP))('the postgres run queue (pg-boss)', () => {
  const queues: PostgresRunQueue[] = [];
  const open = async () => {
    const q = (await openRunQueue({ backend: 'postgres', url: PG_URL, schema, visibilityTimeoutS: 1, store: noStore })) as PostgresRunQueue;
    queues.push(q);
    return q;
  };
  let a: PostgresRunQueue;
  let b: PostgresRunQueue;

  beforeAll(async () => {
    a = await open();
    b = await open();
  });

  afterAll(async () => {
    await Promise.all(queues.map((q) => q.close()));
    if (SKIP) return;
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
  });

  it('queues a run once, starts a delayed run no sooner than asked, and retries a failed job', async () => {
    expect(a.kind).toBe('postgres');
    await a.enqueue('run_once');
    await a.enqueue('run_once'); // still queued: the same job
    const delayedAt = Date.now();
    await a.enqueue('run_later', { delayMs: 1500 });
    await a.enqueue('run_retry');
    const seen: Array<{ runId: string; at: number }> = [];
    let failOnce = true;
    const worker = await b.work(
      async (runId) => {
        seen.push({ runId, at: Date.now() });
        if (runId === 'run_retry' && failOnce) {
          failOnce = false;
          throw Object.assign(new Error('held'), { name: 'RunHeldElsewhereError' });
        }
      },
      { concurrency: 4 },
    );
    await expect.poll(() => seen.filter((s) => s.runId === 'run_retry').length, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => seen.some((s) => s.runId === 'run_later'), { timeout: 30_000 }).toBe(true);
    await worker.stop();
    expect(seen.filter((s) => s.runId === 'run_once')).toHaveLength(1);
    expect(seen.find((s) => s.runId === 'run_later')!.at - delayedAt).toBeGreaterThanOrEqual(1400);
    const tries = seen.filter((s) => s.runId === 'run_retry');
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(900); // the retry waits the visibility timeout
  }, 60_000);

  it('gives the job of a worker that went silent to another worker once it expires', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    const first: string[] = [];
    const w1 = await a.work(async (runId) => (first.push(runId), stuck), { concurrency: 1 });
    await b.enqueue('run_stuck');
    await expect.poll(() => first, { timeout: 30_000 }).toEqual(['run_stuck']);
    const second: string[] = [];
    const w2 = await b.work(async (runId) => void second.push(runId), { concurrency: 1 });
    await expect.poll(() => second, { timeout: 30_000 }).toEqual(['run_stuck']);
    release();
    await Promise.all([w1.stop(), w2.stop()]);
  }, 60_000);

  it('wakes a reader of a run in another process when events are written (NOTIFY corvid_run_events)', async () => {
    const started = Date.now();
    const waiting = b.wakeups.wait('run_events', { timeoutMs: 20_000 });
    await a.wakeups.notify('run_events');
    await waiting;
    expect(Date.now() - started).toBeLessThan(10_000);
    // A notification for another run does not end the wait; the signal does.
    const controller = new AbortController();
    const other = b.wakeups.wait('run_quiet', { timeoutMs: 20_000, signal: controller.signal });
    await a.wakeups.notify('run_events');
    const t = Date.now();
    controller.abort();
    await other;
    expect(Date.now() - t).toBeLessThan(1000);
  });
});
