import { describe, expect, it } from 'vitest';

import type { SuiteContext } from '../store-conformance.js';
import { unique } from '../support/targets.js';
import { expectCode } from './expect-error.js';

export function backgroundRunCases(ctx: SuiteContext): void {
  describe('background runs', () => {
    it('a submitted run goes queued → running → completed; finishing twice changes nothing', async () => {
      const { backgroundRuns } = ctx.store();
      const runId = unique('run');
      const created = await backgroundRuns.create({ runId, agent: 'helper', input: 'hi', sessionId: 's1', owner: 'key:a' });
      expect(created).toMatchObject({ runId, status: 'queued', attempts: 0, cancelRequested: false, sessionId: 's1', owner: 'key:a' });
      await expectCode(backgroundRuns.create({ runId, agent: 'helper', input: 'again' }), 'storage_conflict', runId);
      expect((await backgroundRuns.list({ status: 'queued', due: true, limit: 1000 })).map((r) => r.runId)).toContain(runId);
      const started = await backgroundRuns.markStarted(runId, 'w1', 0);
      expect(started).toMatchObject({ status: 'running', attempts: 1, worker: 'w1' });
      // Of two workers that read attempts 0, only the first wins.
      expect(await backgroundRuns.markStarted(runId, 'w2', 0)).toBeUndefined();
      expect(await backgroundRuns.finish(runId, { status: 'completed', result: { text: 'hello', n: 2 } })).toBe(true);
      expect(await backgroundRuns.finish(runId, { status: 'failed', error: { code: 'x', message: 'late' } })).toBe(false);
      const done = await backgroundRuns.get(runId);
      expect(done).toMatchObject({ status: 'completed', result: { text: 'hello', n: 2 } });
      expect(done?.finishedAt).toBeInstanceOf(Date);
      expect(done?.error).toBeUndefined();
      expect(await backgroundRuns.get(unique('missing'))).toBeUndefined();
    });

    it('cancel: a queued run is cancelled at once; a running one gets the flag its worker polls', async () => {
      const { backgroundRuns } = ctx.store();
      const queued = unique('run');
      const running = unique('run');
      await backgroundRuns.create({ runId: queued, agent: 'a', input: 'x', runAt: new Date(ctx.clock.t + 60_000) });
      expect((await backgroundRuns.list({ status: 'queued', due: true, limit: 1000 })).map((r) => r.runId)).not.toContain(queued);
      await backgroundRuns.create({ runId: running, agent: 'a', input: 'x' });
      await backgroundRuns.markStarted(running, 'w', 0);
      expect(await backgroundRuns.requestCancel(queued)).toMatchObject({ status: 'cancelled', cancelRequested: true });
      expect(await backgroundRuns.requestCancel(running)).toMatchObject({ status: 'running', cancelRequested: true });
      expect((await backgroundRuns.cancelRequested([queued, running, unique('other')])).sort()).toEqual([queued, running].sort());
      expect(await backgroundRuns.markStarted(running, 'w2', 1)).toBeUndefined();
      expect(await backgroundRuns.requestCancel(unique('missing'))).toBeUndefined();
    });
    it('requeue: only a paused run goes back to queued (due now), once', async () => {
      const { backgroundRuns } = ctx.store();
      const runId = unique('run');
      await backgroundRuns.create({ runId, agent: 'a', input: 'x', runAt: new Date(ctx.clock.t - 1000) });
      expect(await backgroundRuns.requeue(runId)).toBeUndefined(); // queued, not paused
      await backgroundRuns.markStarted(runId, 'w', 0);
      expect(await backgroundRuns.requeue(runId)).toBeUndefined(); // running
      await backgroundRuns.finish(runId, { status: 'paused', result: { text: '' } });
      const again = await backgroundRuns.requeue(runId);
      expect(again).toMatchObject({ runId, status: 'queued', attempts: 1 });
      expect(await backgroundRuns.requeue(runId)).toBeUndefined(); // of two answers, one requeues
      expect((await backgroundRuns.list({ status: 'queued', due: true, limit: 1000 })).map((r) => r.runId)).toContain(runId);
      expect(await backgroundRuns.markStarted(runId, 'w2', 1)).toMatchObject({ status: 'running', attempts: 2 });
      await backgroundRuns.finish(runId, { status: 'completed' });
      expect(await backgroundRuns.requeue(runId)).toBeUndefined();
      expect(await backgroundRuns.requeue(unique('missing'))).toBeUndefined();
    });
  });

  describe('run events', () => {
    it('appends numbered events and reads them after a cursor; a seq written twice is refused', async () => {
      const { runEvents } = ctx.store();
      const runId = unique('run');
      expect(await runEvents.lastSeq(runId)).toBe(0);
      await runEvents.append(runId, [
        { seq: 1, type: 'run_start', data: { type: 'run_start', input: 'hé' } },
        { seq: 2, type: 'text_delta', data: { text: 'a' } },
      ]);
      await runEvents.append(runId, [{ seq: 3, type: 'done', data: { status: 'completed' } }]);
      expect(await runEvents.lastSeq(runId)).toBe(3);
      const all = await runEvents.read(runId);
      expect(all.map((e) => [e.seq, e.type])).toEqual([
        [1, 'run_start'],
        [2, 'text_delta'],
        [3, 'done'],
      ]);
      expect(all[0].data).toEqual({ type: 'run_start', input: 'hé' });
      expect((await runEvents.read(runId, { after: 1, limit: 1 })).map((e) => e.seq)).toEqual([2]);
      expect(await runEvents.read(runId, { after: 3 })).toEqual([]);
      await expectCode(runEvents.append(runId, [{ seq: 3, type: 'x', data: {} }]), 'storage_conflict', runId);
      expect(await runEvents.lastSeq(runId)).toBe(3);
    });
  });
}
