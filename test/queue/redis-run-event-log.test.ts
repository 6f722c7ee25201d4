/**
 * The redis queue's run event log (Redis Streams) and its wake-ups, against a real Redis
 * (CORVID_TEST_REDIS_URL); each run of the file uses its own key prefix and deletes its keys.
 */
import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openRedisRunQueue, type RedisRunQueue } from '../../src/queue/redis-run-queue.js';

const REDIS_URL = process.env.CORVID_TEST_REDIS_URL;
if (!REDIS_URL)
  console.log('[queue] redis event log suite skipped: CORVID_TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379; .ci/run sets it)');

describe.skipIf(!REDIS_URL)('redis run event log (Redis Streams)', () => {
  const prefix = `corvid-test-${randomBytes(4).toString('hex')}`;
  let queue: RedisRunQueue;
  let redis: Redis;

  beforeAll(async () => {
    queue = await openRedisRunQueue({ url: REDIS_URL!, prefix, eventsTtlSeconds: 60 });
    redis = new Redis(REDIS_URL!);
  });

  afterAll(async () => {
    await queue?.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('appends in seq order, reads after a cursor with a limit, and knows the last seq', async () => {
    const log = queue.events;
    expect(await log.lastSeq('run_a')).toBe(0);
    expect(await log.read('run_a')).toEqual([]);
    await log.append('run_a', [
      { seq: 1, type: 'run_start', data: { type: 'run_start', agent: 'helper' } },
      { seq: 2, type: 'text_delta', data: { text: 'Hé' } },
    ]);
    await log.append('run_a', [{ seq: 3, type: 'done', data: { status: 'completed' } }]);
    expect(await log.lastSeq('run_a')).toBe(3);
    const all = await log.read('run_a');
    expect(all.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run_start'],
      [2, 'text_delta'],
      [3, 'done'],
    ]);
    expect(all[1]).toMatchObject({ runId: 'run_a', data: { text: 'Hé' } });
    expect(all[0].createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await log.read('run_a', { after: 1, limit: 1 })).map((e) => e.seq)).toEqual([2]);
    expect(await log.read('run_a', { after: 3 })).toEqual([]);
    // Another run's log is its own.
    expect(await log.read('run_b')).toEqual([]);
  });

  it('refuses a seq written already, and leaves the log as it was', async () => {
    const log = queue.events;
    await log.append('run_c', [
      { seq: 1, type: 'a', data: {} },
      { seq: 2, type: 'b', data: {} },
    ]);
    const err = await log
      .append('run_c', [
        { seq: 3, type: 'c', data: {} },
        { seq: 2, type: 'again', data: {} },
      ])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ name: 'StorageError', kind: 'conflict', code: 'storage_conflict' });
    expect((err as Error).message).toContain('run_c');
    await expect(log.append('run_c', [{ seq: 1, type: 'x', data: {} }])).rejects.toMatchObject({ kind: 'conflict' });
    expect((await log.read('run_c')).map((e) => e.type)).toEqual(['a', 'b']);
    expect(await log.lastSeq('run_c')).toBe(2);
  });

  it('keeps a log while the run goes on and lets a finished one expire', async () => {
    const log = queue.events;
    await log.append('run_d', [{ seq: 1, type: 'run_start', data: {} }]);
    expect(await redis.ttl(`${prefix}:run:run_d:events`)).toBe(-1);
    await log.append('run_d', [{ seq: 2, type: 'done', data: { status: 'completed' } }]);
    const ttl = await redis.ttl(`${prefix}:run:run_d:events`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('wakes a waiting reader when events are appended, and lets it go on abort or timeout', async () => {
    const { events: log, wakeups } = queue;
    await log.append('run_e', [{ seq: 1, type: 'a', data: {} }]);
    // Waiting after seq 1 for up to 20 s: the append of seq 2 ends it.
    const woken = wakeups.wait('run_e', { timeoutMs: 20_000, after: 1 }).then(() => 'woken');
    await log.append('run_e', [{ seq: 2, type: 'b', data: {} }]);
    expect(await woken).toBe('woken');
    // An event the reader has not seen yet ends the wait at once.
    await wakeups.wait('run_e', { timeoutMs: 20_000, after: 1 });
    // Abort ends a wait.
    const controller = new AbortController();
    const aborted = wakeups.wait('run_e', { timeoutMs: 20_000, after: 2, signal: controller.signal });
    controller.abort();
    await aborted;
    // Nothing new: the wait ends by its timeout.
    await wakeups.wait('run_e', { timeoutMs: 50, after: 2 });
  });

  it('reports an unreachable Redis with its URL, password masked', async () => {
    await expect(openRedisRunQueue({ url: 'redis://:hunter2@127.0.0.1:1' })).rejects.toMatchObject({
      code: 'storage_unavailable',
      message: expect.stringMatching(/Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/),
    });
  });
});
