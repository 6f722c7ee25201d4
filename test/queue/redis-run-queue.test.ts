/**
 * The redis queue (BullMQ) against a real Redis (CORVID_TEST_REDIS_URL): a run id is queued once,
 * a delayed run waits, a handler that throws is retried and its job ends in the failed set, and a
 * worker takes at most `concurrency` jobs at a time. Each test uses its own key prefix and deletes
 * its keys.
 */
import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { openRedisRunQueue, type RedisRunQueue, type RedisRunQueueOptions } from '../../src/queue/redis-run-queue.js';
import { openStore } from '../../src/storage/index.js';

const REDIS_URL = process.env.CORVID_TEST_REDIS_URL;
if (!REDIS_URL)
  console.log('[queue] redis queue suite skipped: CORVID_TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379; .ci/run sets it)');

describe.skipIf(!REDIS_URL)('redis run queue (BullMQ)', () => {
  const prefixes: string[] = [];
  const queues: RedisRunQueue[] = [];

  async function open(options: Partial<RedisRunQueueOptions> = {}): Promise<{ queue: RedisRunQueue; prefix: string }> {
    const prefix = `corvid-test-${randomBytes(4).toString('hex')}`;
    prefixes.push(prefix);
    const queue = await openRedisRunQueue({ url: REDIS_URL!, prefix, ...options });
    queues.push(queue);
    return { queue, prefix };
  }

  afterAll(async () => {
    await Promise.all(queues.map((q) => q.close()));
    if (!REDIS_URL) return;
    const redis = new Redis(REDIS_URL);
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  });

  it('hands each queued run id to one handler call, once even when queued twice, and waits out a delay', async () => {
    const { queue } = await open();
    const calls: Array<{ runId: string; at: number }> = [];
    const all = new Promise<void>((resolve) => {
      void queue.work(
        async (runId) => {
          calls.push({ runId, at: Date.now() });
          if (calls.length === 3) resolve();
        },
        { concurrency: 4 },
      );
    });
    const queuedAt = Date.now();
    await queue.enqueue('run_1');
    await queue.enqueue('run_1');
    await queue.enqueue('run_2');
    await queue.enqueue('run_late', { delayMs: 1500 });
    await all;
    expect(calls.map((c) => c.runId).sort()).toEqual(['run_1', 'run_2', 'run_late']);
    expect(calls.find((c) => c.runId === 'run_late')!.at - queuedAt).toBeGreaterThanOrEqual(1400);
    await queue.close();
    await queue.close();
  });

  it('retries a job whose handler throws, then keeps it in the failed set (the dead letters)', async () => {
    const { queue, prefix } = await open({ attempts: 2 });
    let calls = 0;
    const worker = await queue.work(
      async () => {
        calls++;
        throw new Error('run run_x is running in another worker');
      },
      { concurrency: 1 },
    );
    await queue.enqueue('run_x');
    const redis = new Redis(REDIS_URL!);
    try {
      await expect.poll(() => redis.zrange(`${prefix}:runs:failed`, 0, -1), { timeout: 15_000 }).toEqual(['run_x']);
      expect(calls).toBe(2);
      expect(await redis.hget(`${prefix}:runs:run_x`, 'failedReason')).toContain('running in another worker');
    } finally {
      redis.disconnect();
      await worker.stop();
    }
  });

  it('runs at most `concurrency` jobs at once in a worker, and stop() waits for them', async () => {
    const { queue } = await open();
    let running = 0;
    let most = 0;
    let finished = 0;
    const worker = await queue.work(
      async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 100));
        running--;
        finished++;
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 12; i++) await queue.enqueue(`run_c${i}`);
    await expect.poll(() => finished, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    await worker.stop();
    expect(running).toBe(0);
    expect(most).toBe(3);
  });

  it("queues again, when a worker starts, the store's unfinished runs whose job Redis does not have", async () => {
    const store = await openStore({ driver: 'memory' });
    try {
      await store.backgroundRuns.create({ runId: 'run_lost', agent: 'helper', input: 'x' });
      const { queue } = await open({ store: async () => store });
      const seen: string[] = [];
      const worker = await queue.work(async (runId) => void seen.push(runId), { concurrency: 1 });
      await expect.poll(() => seen, { timeout: 15_000 }).toEqual(['run_lost']);
      await worker.stop();
    } finally {
      await store.close();
    }
  });
});
