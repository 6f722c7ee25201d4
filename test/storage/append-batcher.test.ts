import { describe, expect, it } from 'vitest';

import { AppendBatcher, type AppendRequest, type AppendResult } from '../../src/storage/sql/append-batcher.js';

const req = (sessionId: string, n = 1): AppendRequest => ({
  sessionId,
  now: 0,
  rows: Array.from({ length: n }, () => ({
    type: 't',
    agent: null,
    role: null,
    run_id: null,
    message: null,
    usage_json: null,
    data: null,
    search_text: null,
  })),
});

/** A fake backend recording batches; each flush takes a few milliseconds. */
function recorder(fail?: (batch: AppendRequest[]) => boolean) {
  const batches: string[][] = [];
  const last = new Map<string, number>();
  let concurrent = 0;
  let maxConcurrent = 0;
  const flush = async (batch: AppendRequest[]): Promise<AppendResult[]> => {
    concurrent++;
    maxConcurrent = Math.max(maxConcurrent, concurrent);
    batches.push(batch.map((r) => r.sessionId));
    await new Promise((r) => setTimeout(r, 3));
    concurrent--;
    if (fail?.(batch)) throw new Error('flush failed');
    return batch.map((r) => {
      const from = last.get(r.sessionId) ?? 0;
      last.set(r.sessionId, from + r.rows.length);
      return r.rows.map((_, i) => from + 1 + i);
    });
  };
  return { flush, batches, stats: () => ({ maxConcurrent }) };
}

describe('append batcher (group commit)', () => {
  it('groups appends that arrive during a flush, keeping per-session order and a concurrency limit', async () => {
    const r = recorder();
    const batcher = new AppendBatcher(r.flush, 2);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => batcher.submit(req(`s${i % 4}`))));
    for (let s = 0; s < 4; s++) expect(results.filter((_, i) => i % 4 === s).map((x) => x![0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.batches.length).toBeLessThan(40);
    expect(r.stats().maxConcurrent).toBeLessThanOrEqual(2);
  });

  it('never has one session in two flushes at once', async () => {
    const r = recorder();
    const batcher = new AppendBatcher(r.flush, 4);
    const running = new Set<string>();
    const guarded = async (batch: AppendRequest[]) => {
      for (const b of batch) expect(running.has(b.sessionId)).toBe(false);
      batch.forEach((b) => running.add(b.sessionId));
      try {
        return await r.flush(batch);
      } finally {
        batch.forEach((b) => running.delete(b.sessionId));
      }
    };
    const b2 = new AppendBatcher(guarded, 4);
    await Promise.all(Array.from({ length: 30 }, (_, i) => b2.submit(req(i % 2 ? 'x' : 'y'))));
    await batcher.submit(req('z'));
  });

  it('rejects every request of a failed flush and goes on with the next ones', async () => {
    let first = true;
    const r = recorder(() => {
      const f = first;
      first = false;
      return f;
    });
    const batcher = new AppendBatcher(r.flush, 1);
    const a = batcher.submit(req('a'));
    const b = batcher.submit(req('b'));
    await expect(a).rejects.toThrow('flush failed');
    expect(await b).toEqual([1]);
  });
});
