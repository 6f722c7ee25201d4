import { describe, expect, it } from 'vitest';

import { ParallelAgent, RunAbortedError, ValidationError, WorkflowError } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { answering, deferred, recorder, scripted, waitForAbort } from './helpers.js';

describe('ParallelAgent', () => {
  it('runs every branch on the same input and collects the answers in sub-agent order', async () => {
    const a = answering('legal', 'No legal issues.');
    const b = answering('finance', 'Within budget.');
    const team = new ParallelAgent({ name: 'review', subAgents: [a.agent, b.agent] });
    const rec = recorder();
    const r = await team.run('Review the contract', { onEvent: rec.onEvent });
    expect(r.text).toBe('## legal\nNo legal issues.\n\n## finance\nWithin budget.');
    expect(a.model.calls[0].prompt.at(-1)).toMatchObject({ role: 'user', content: [{ text: 'Review the contract' }] });
    expect(b.model.calls[0].prompt.at(-1)).toMatchObject({ role: 'user', content: [{ text: 'Review the contract' }] });
    expect(r.subRuns!.map((s) => `${s.id}:${s.status}`).sort()).toEqual(['finance:completed', 'legal:completed']);
    expect(r.workflow).toEqual({ kind: 'parallel' });
    expect(r.usageByAgent).toEqual({
      legal: expect.objectContaining({ totalTokens: 15 }),
      finance: expect.objectContaining({ totalTokens: 15 }),
    });
    expect(r.usage.totalTokens).toBe(30);
    expect(rec.of('task_start').map((e) => `${e.workflow}:${e.task}→${e.target}`)).toEqual([
      'parallel:legal→legal',
      'parallel:finance→finance',
    ]);
    expect(rec.of('answer')).toEqual([expect.objectContaining({ path: ['review'], text: r.text })]);
    // The conversation gets the input and the combined answer.
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('really runs branches at the same time, up to maxConcurrency', async () => {
    let active = 0;
    let peak = 0;
    const branch = (name: string) =>
      scripted(name, async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setImmediate(r));
        active--;
        return { text: name };
      });
    const all = ['a', 'b', 'c', 'd'].map(branch);
    await new ParallelAgent({ name: 'p', subAgents: all.map((x) => x.agent) }).run('go');
    expect(peak).toBe(4);
    peak = 0;
    await new ParallelAgent({ name: 'p', subAgents: ['e', 'f', 'g', 'h'].map(branch).map((x) => x.agent), maxConcurrency: 2 }).run('go');
    expect(peak).toBe(2);
  });

  it('fail-fast: the first failure cancels the other branches and fails the run with that error', async () => {
    const started = deferred();
    let waiting = 0;
    const slow = waitForAbort(() => {
      if (++waiting === 2) started.resolve();
    });
    const ok1 = scripted('ok1', slow.turn);
    const ok2 = scripted('ok2', slow.turn);
    // The failing branch fails only once the others are running.
    const bad = scripted('bad', async () => {
      await started.promise;
      return { error: new Error('bad branch broke') };
    });
    const team = new ParallelAgent({ name: 'p', subAgents: [ok1.agent, bad.agent, ok2.agent] });
    const rec = recorder();
    const err = await team.run('go', { onEvent: rec.onEvent }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/bad branch broke/);
    expect(slow.seen.aborted).toBe(2);
    expect(ok1.model.calls[0].abortSignal?.aborted).toBe(true);
    expect(ok2.model.calls[0].abortSignal?.aborted).toBe(true);
    expect(
      rec
        .of('task_end')
        .map((e) => `${e.task}:${e.status}`)
        .sort(),
    ).toEqual(['bad:failed', 'ok1:aborted', 'ok2:aborted']);
    expect(rec.of('run_end').at(-1)).toMatchObject({ path: ['p'], status: 'failed' });
  });

  it('without fail-fast: every branch runs, failures are reported beside the answers', async () => {
    const ok = answering('ok', 'fine');
    const bad = scripted('bad', [{ error: new Error('kaput') }]);
    const ok2 = answering('ok2', 'also fine');
    const team = new ParallelAgent({ name: 'p', subAgents: [ok.agent, bad.agent, ok2.agent], failFast: false });
    const r = await team.run('go');
    expect(r.subRuns!.map((s) => `${s.id}:${s.status}`).sort()).toEqual(['bad:failed', 'ok2:completed', 'ok:completed']);
    expect(r.text).toContain('## ok\nfine');
    expect(r.text).toContain('## bad (failed)\n');
    expect(r.text).toContain('kaput');
    expect(r.text).toContain('## ok2\nalso fine');
    // Only when every branch fails does the run fail.
    const allBad = new ParallelAgent({
      name: 'q',
      subAgents: [scripted('x', [{ error: new Error('x down') }]).agent, scripted('y', [{ error: new Error('y down') }]).agent],
      failFast: false,
    });
    const err = await allBad.run('go').catch((e) => e);
    expect(err).toBeInstanceOf(WorkflowError);
    expect(err.message).toMatch(/Every part of parallel agent "q" failed: x: .*x down.*; y: .*y down/);
  });

  it('cancellation stops every branch', async () => {
    const started = deferred();
    let waiting = 0;
    const slow = waitForAbort(() => {
      if (++waiting === 3) started.resolve();
    });
    const branches = ['a', 'b', 'c'].map((n) => scripted(n, slow.turn));
    const team = new ParallelAgent({ name: 'p', subAgents: branches.map((b) => b.agent) });
    const s = team.stream('go');
    const events: string[] = [];
    const consume = (async () => {
      for await (const e of s) if (e.type === 'run_end') events.push(`${e.path.join('>')}:${e.status}`);
    })();
    await started.promise;
    s.abort();
    await expect(s.result).rejects.toBeInstanceOf(RunAbortedError);
    await consume;
    expect(slow.seen.aborted).toBe(3);
    for (const b of branches) expect(b.model.calls[0].abortSignal?.aborted).toBe(true);
    expect(events.sort()).toEqual(['p:aborted', 'p>a:aborted', 'p>b:aborted', 'p>c:aborted']);
  });

  it('validates its options', () => {
    expect(() => new ParallelAgent({ name: 'p', subAgents: [] })).toThrow(ValidationError);
    const a = new ScriptedModel([]);
    expect(() => new ParallelAgent({ name: 'p', subAgents: [answering('a', 'x', { model: a }).agent], maxConcurrency: 0 })).toThrow(
      /maxConcurrency must be a positive whole number/,
    );
  });
});
