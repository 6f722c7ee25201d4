import { describe, expect, it } from 'vitest';

import type { SuiteContext } from '../store-conformance.js';
import { unique } from '../support/targets.js';
import { expectCode } from './expect-error.js';
import { richMessages } from './sessions.js';

export function runCases(ctx: SuiteContext): void {
  describe('checkpoints', () => {
    it('saves numbered checkpoints and returns the latest, state intact', async () => {
      const { sessions, checkpoints } = ctx.store();
      const { id: sessionId } = await sessions.create({ agent: 'a' });
      const runId = unique('run');
      const first = await checkpoints.save({ runId, sessionId, agent: 'a', status: 'running', state: { step: 1 } });
      expect(first).toMatchObject({ runId, seq: 1, sessionId, agent: 'a', status: 'running', state: { step: 1 } });
      ctx.clock.tick(100);
      const state = { step: 2, messages: richMessages, completed: { call_1: { output: 'x' } } };
      const second = await checkpoints.save({ runId, sessionId, agent: 'a', status: 'paused', state });
      expect(second.seq).toBe(2);
      const latest = await checkpoints.latest(runId);
      expect(latest).toEqual(second);
      expect(latest!.state).toEqual(state);
      expect(await checkpoints.getRun(runId)).toMatchObject({ runId, sessionId, agent: 'a', status: 'paused', checkpoints: 2 });
      expect(await checkpoints.latest(unique('nope'))).toBeUndefined();
      expect(await checkpoints.getRun(unique('nope'))).toBeUndefined();
      const sessionless = await checkpoints.save({ runId: unique('run'), agent: 'a', status: 'running', state: null });
      expect(sessionless.sessionId).toBeUndefined();
      expect(sessionless.state).toBeNull();
    });

    it('refuses an unknown session and a bad status', async () => {
      const { checkpoints } = ctx.store();
      const missing = unique('missing');
      await expectCode(
        checkpoints.save({ runId: unique('run'), sessionId: missing, agent: 'a', status: 'running', state: {} }),
        'not_found',
        missing,
      );
      await expectCode(checkpoints.save({ runId: unique('run'), agent: 'a', status: 'sleeping' as never, state: {} }), 'validation_failed');
    });

    it('saves a checkpoint with session entries in one transaction: both or neither', async () => {
      const { sessions, checkpoints } = ctx.store();
      const { id: sessionId } = await sessions.create({ agent: 'a' });
      await sessions.append(sessionId, { message: { role: 'user', content: [{ type: 'text', text: 'earlier' }] } });
      const runId = unique('run');
      const word = unique('word').replace(/[^a-z0-9]/gi, '');
      const hello = { role: 'user' as const, content: [{ type: 'text' as const, text: `hello ${word}` }] };
      const saved = await checkpoints.save({
        runId,
        sessionId,
        agent: 'a',
        status: 'running',
        state: { step: 0 },
        append: { entries: [{ message: hello, agent: 'a', runId }], expectedLastSeq: 1 },
      });
      expect(saved).toMatchObject({ runId, seq: 1, status: 'running' });
      expect((await sessions.entries(sessionId)).map((e) => [e.seq, e.runId, e.message])).toEqual([
        [1, undefined, { role: 'user', content: [{ type: 'text', text: 'earlier' }] }],
        [2, runId, hello],
      ]);
      expect((await sessions.get(sessionId))?.lastSeq).toBe(2);
      // Indexed for conversation search like any append.
      expect((await ctx.store().conversations.search(word, { sessionId })).map((h) => h.seq)).toEqual([2]);

      // A session that moved on: a conflict, and neither the run nor the entries are written.
      const late = unique('run');
      await expectCode(
        checkpoints.save({
          runId: late,
          sessionId,
          agent: 'a',
          status: 'running',
          state: {},
          append: { entries: [{ message: hello }], expectedLastSeq: 1 },
        }),
        'storage_conflict',
        sessionId,
      );
      expect(await checkpoints.getRun(late)).toBeUndefined();
      expect((await sessions.get(sessionId))?.lastSeq).toBe(2);
      // A bad entry or a missing session: nothing written either.
      await expectCode(
        checkpoints.save({
          runId: late,
          sessionId,
          agent: 'a',
          status: 'running',
          state: {},
          append: { entries: [{ message: { role: 'nobody' } as never }] },
        }),
        'validation_failed',
      );
      await expectCode(
        checkpoints.save({ runId: late, agent: 'a', status: 'running', state: {}, append: { entries: [{ message: hello }] } }),
        'validation_failed',
      );
      const missing = unique('missing');
      await expectCode(
        checkpoints.save({
          runId: late,
          sessionId: missing,
          agent: 'a',
          status: 'running',
          state: {},
          append: { entries: [{ message: hello }] },
        }),
        'not_found',
        missing,
      );
      expect(await checkpoints.getRun(late)).toBeUndefined();
      expect(await sessions.countMessages(sessionId)).toBe(2);
    });

    it('lists runs by status, session and agent, most recently updated first', async () => {
      const { sessions, checkpoints } = ctx.store();
      const agent = unique('agent');
      const { id: sessionId } = await sessions.create({ agent });
      const save = async (runId: string, status: 'running' | 'paused' | 'completed' | 'failed', withSession = false) => {
        ctx.clock.tick(10);
        await checkpoints.save({ runId, agent, status, state: {}, ...(withSession ? { sessionId } : {}) });
      };
      const [r1, r2, r3] = [unique('r1'), unique('r2'), unique('r3')];
      await save(r1, 'running');
      await save(r2, 'paused', true);
      await save(r3, 'running');
      await save(r1, 'completed');
      const ids = async (o: Parameters<typeof checkpoints.listRuns>[0]) =>
        (await checkpoints.listRuns({ agent, ...o })).map((r) => r.runId);
      expect(await ids({})).toEqual([r1, r3, r2]);
      expect(await ids({ status: 'running' })).toEqual([r3]);
      expect(await ids({ status: ['running', 'paused'] })).toEqual([r3, r2]);
      expect(await ids({ sessionId })).toEqual([r2]);
      expect(await ids({ limit: 1 })).toEqual([r1]);
    });

    it('hides expired checkpoints and removes them with deleteExpired', async () => {
      const { checkpoints, approvals } = ctx.store();
      const agent = unique('agent');
      const [gone, partly, forever] = [unique('gone'), unique('partly'), unique('forever')];
      const soon = new Date(ctx.clock.t + 1000);
      const later = new Date(ctx.clock.t + 60_000);
      await checkpoints.save({ runId: gone, agent, status: 'paused', state: 1, expiresAt: soon });
      const approval = await approvals.create({ runId: gone, toolCallId: 'c', toolName: 't', args: {} });
      await checkpoints.save({ runId: partly, agent, status: 'running', state: 1, expiresAt: soon });
      await checkpoints.save({ runId: partly, agent, status: 'running', state: 2, expiresAt: later });
      await checkpoints.save({ runId: forever, agent, status: 'running', state: 1 });
      ctx.clock.tick(2000);
      expect(await checkpoints.latest(gone)).toBeUndefined();
      expect((await checkpoints.latest(partly))!.state).toBe(2);
      expect((await checkpoints.listRuns({ agent })).map((r) => r.runId).sort()).toEqual([forever, partly].sort());
      expect(await checkpoints.deleteExpired()).toBeGreaterThanOrEqual(2);
      expect(await checkpoints.getRun(gone)).toBeUndefined();
      expect(await approvals.get(approval.id)).toBeUndefined();
      expect(await checkpoints.getRun(partly)).toMatchObject({ checkpoints: 2 });
      expect(await checkpoints.deleteExpired(new Date(ctx.clock.t + 120_000))).toBeGreaterThanOrEqual(1);
      expect(await checkpoints.getRun(partly)).toBeUndefined();
      expect(await checkpoints.getRun(forever)).toBeDefined();
    });

    it('deletes a run with its checkpoints and approvals', async () => {
      const { checkpoints, approvals } = ctx.store();
      const runId = unique('run');
      await checkpoints.save({ runId, agent: 'a', status: 'paused', state: {} });
      const a = await approvals.create({ runId, toolCallId: 'c1', toolName: 't', args: {} });
      expect(await checkpoints.delete(runId)).toBe(true);
      expect(await checkpoints.delete(runId)).toBe(false);
      expect(await checkpoints.latest(runId)).toBeUndefined();
      expect(await approvals.get(a.id)).toBeUndefined();
    });
  });

  describe('approvals', () => {
    it('creates pending approvals (idempotent per tool call) and lists them', async () => {
      const { sessions, checkpoints, approvals } = ctx.store();
      const { id: sessionId } = await sessions.create({ agent: 'a' });
      const runId = unique('run');
      await checkpoints.save({ runId, sessionId, agent: 'a', status: 'paused', state: {} });
      const a1 = await approvals.create({
        runId,
        toolCallId: 'call_1',
        toolName: 'delete_file',
        args: { path: '/tmp/x' },
        prompt: 'Delete /tmp/x?',
      });
      expect(a1).toMatchObject({
        runId,
        sessionId,
        toolCallId: 'call_1',
        toolName: 'delete_file',
        args: { path: '/tmp/x' },
        prompt: 'Delete /tmp/x?',
        status: 'pending',
      });
      expect(a1.id).toMatch(/^apr_/);
      expect(a1.answeredAt).toBeUndefined();
      ctx.clock.tick(1);
      expect(await approvals.create({ runId, toolCallId: 'call_1', toolName: 'delete_file', args: { other: true } })).toEqual(a1);
      const a2 = await approvals.create({ id: unique('my-approval'), runId, toolCallId: 'call_2', toolName: 'send', args: [1] });
      expect(a2.prompt).toBeUndefined();
      expect(await approvals.get(a1.id)).toEqual(a1);
      expect(await approvals.get(unique('nope'))).toBeUndefined();
      expect((await approvals.listPending({ runId })).map((a) => a.id)).toEqual([a1.id, a2.id]);
      expect((await approvals.listPending({ sessionId })).map((a) => a.id)).toEqual([a1.id, a2.id]);
      expect((await approvals.listForRun(runId)).length).toBe(2);
      await expectCode(approvals.create({ runId: unique('ghost'), toolCallId: 'c', toolName: 't', args: {} }), 'not_found', 'Unknown run');
    });

    it('answers exactly once, also when two answers race', async () => {
      const { checkpoints, approvals } = ctx.store();
      const runId = unique('run');
      await checkpoints.save({ runId, agent: 'a', status: 'paused', state: {} });
      const a = await approvals.create({ runId, toolCallId: 'c1', toolName: 'pay', args: { amount: 5 } });
      ctx.clock.tick(3000);
      const denied = await approvals.answer(a.id, { approved: false, reason: 'Too expensive' });
      expect(denied).toMatchObject({ id: a.id, status: 'denied', reason: 'Too expensive' });
      expect(denied.answeredAt!.getTime()).toBe(a.createdAt.getTime() + 3000);
      await expectCode(approvals.answer(a.id, { approved: true }), 'storage_conflict', 'already answered');
      expect((await approvals.get(a.id))!.status).toBe('denied');
      expect(await approvals.listPending({ runId })).toEqual([]);
      await expectCode(approvals.answer(unique('nope'), { approved: true }), 'not_found');
      await expectCode(approvals.answer(a.id, { approved: 'yes' } as never), 'validation_failed');

      const b = await approvals.create({ runId, toolCallId: 'c2', toolName: 'pay', args: {} });
      const results = await Promise.allSettled([
        approvals.answer(b.id, { approved: true }),
        approvals.answer(b.id, { approved: false, reason: 'no' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const winner = results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ status: string }>;
      expect((await approvals.get(b.id))!.status).toBe(winner.value.status);
    });
  });
}
