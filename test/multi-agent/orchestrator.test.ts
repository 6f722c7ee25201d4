import { describe, expect, it } from 'vitest';

import { checkTaskGraph, Orchestrator, ValidationError, WorkflowError } from '../../src/index.js';
import { answering, deferred, lastUserText, recorder, scripted, waitForAbort } from './helpers.js';

describe('Orchestrator: the task graph is checked up front', () => {
  const a = answering('a', 'x').agent;

  it('reports a cycle with its path', () => {
    const make = () =>
      new Orchestrator({
        name: 'o',
        tasks: [
          { id: 'plan', agent: a, dependsOn: ['review'] },
          { id: 'draft', agent: a, dependsOn: ['plan'] },
          { id: 'review', agent: a, dependsOn: ['draft'] },
          { id: 'free', agent: a },
        ],
      });
    expect(make).toThrow(ValidationError);
    expect(make).toThrow('tasks[1].dependsOn[0]: task dependency cycle: plan → draft → review → plan');
  });

  it('reports unknown dependencies, self-dependencies and duplicate ids, all at once', () => {
    const issues = checkTaskGraph([{ id: 'a', dependsOn: ['reserch', 'a'] }, { id: 'b' }, { id: 'b' }]);
    expect(issues.map((i) => i.message)).toEqual([
      'duplicate task id "b"',
      'task "a" depends on unknown task "reserch"; tasks: "a", "b"',
      'task "a" cannot depend on itself',
    ]);
    expect(() => new Orchestrator({ name: 'o', tasks: [{ id: 'w', agent: a, dependsOn: ['nope'] }] })).toThrow(
      'Orchestrator "o" has an invalid task graph:\n  tasks[0].dependsOn[0]: task "w" depends on unknown task "nope"; tasks: "w"',
    );
  });
});

describe('Orchestrator: running', () => {
  it("runs independent tasks in parallel and gives each task its dependencies' results", async () => {
    // facts and figures must both be running before either answers.
    const both = deferred();
    let running = 0;
    const gate = (text: string) => async () => {
      if (++running === 2) both.resolve();
      await both.promise;
      return { text };
    };
    const researcher = scripted('researcher', gate('Crows are clever.'));
    const analyst = scripted('analyst', gate('40 species.'));
    const writer = answering('writer', 'Report: clever crows, 40 species.');
    const editor = answering('editor', 'Edited report.');
    const o = new Orchestrator({
      name: 'report',
      tasks: [
        { id: 'facts', agent: researcher.agent },
        { id: 'figures', agent: analyst.agent, input: 'Count for: {input}' },
        { id: 'draft', agent: writer.agent, dependsOn: ['facts', 'figures'] },
        { id: 'edit', agent: editor.agent, dependsOn: ['draft'], input: 'Edit this: {output.draft}' },
      ],
    });
    const rec = recorder();
    const r = await o.run('crows', { onEvent: rec.onEvent });
    expect(r.text).toBe('Edited report.');
    expect(lastUserText(analyst.model.calls[0])).toBe('Count for: crows');
    expect(lastUserText(writer.model.calls[0])).toBe(
      'crows\n\nResults of the tasks this one builds on:\n\n## facts\nCrows are clever.\n\n## figures\n40 species.',
    );
    // A template naming a dependency gets no appended results.
    expect(lastUserText(editor.model.calls[0])).toBe('Edit this: Report: clever crows, 40 species.');
    expect(r.subRuns!.map((s) => `${s.id}:${s.status}`)).toEqual(
      expect.arrayContaining(['facts:completed', 'figures:completed', 'draft:completed', 'edit:completed']),
    );
    expect(r.subRuns!.find((s) => s.id === 'draft')!.text).toBe('Report: clever crows, 40 species.');
    expect(rec.of('task_start').map((e) => `${e.task}[${(e.dependsOn ?? []).join(',')}]`)).toEqual([
      'facts[]',
      'figures[]',
      'draft[facts,figures]',
      'edit[draft]',
    ]);
    expect(Object.keys(r.usageByAgent).sort()).toEqual(['analyst', 'editor', 'researcher', 'writer']);
  });

  it('keeps to maxParallel', async () => {
    let active = 0;
    let peak = 0;
    const worker = scripted('w', async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      active--;
      return { text: 'ok' };
    });
    const tasks = Array.from({ length: 6 }, (_, i) => ({ id: `t${i}`, agent: worker.agent }));
    await new Orchestrator({ name: 'o', tasks, maxParallel: 2 }).run('go');
    expect(peak).toBe(2);
  });

  it('fail-fast: a failing task cancels the running ones, the rest never start', async () => {
    const started = deferred();
    const slow = waitForAbort(() => started.resolve());
    const long = scripted('long', slow.turn);
    const bad = scripted('bad', async () => {
      await started.promise;
      return { error: new Error('task broke') };
    });
    const after = answering('after', 'never');
    const o = new Orchestrator({
      name: 'o',
      tasks: [
        { id: 'long', agent: long.agent },
        { id: 'bad', agent: bad.agent },
        { id: 'after', agent: after.agent, dependsOn: ['bad'] },
      ],
    });
    const rec = recorder();
    await expect(o.run('go', { onEvent: rec.onEvent })).rejects.toThrow(/task broke/);
    expect(slow.seen.aborted).toBe(1);
    expect(after.model.calls).toHaveLength(0);
    expect(
      rec
        .of('task_end')
        .map((e) => `${e.task}:${e.status}`)
        .sort(),
    ).toEqual(['after:skipped', 'bad:failed', 'long:aborted']);
  });

  it('continue-on-error: dependents of a failed task are skipped, the others run, every outcome is returned', async () => {
    const bad = scripted('bad', [{ error: new Error('no data') }]);
    const o = new Orchestrator({
      name: 'o',
      failFast: false,
      tasks: [
        { id: 'fetch', agent: bad.agent },
        { id: 'parse', agent: answering('parse', 'never').agent, dependsOn: ['fetch'] },
        { id: 'report', agent: answering('report', 'never').agent, dependsOn: ['parse'] },
        { id: 'other', agent: answering('other', 'Other work done.').agent },
      ],
    });
    const r = await o.run('go');
    expect(Object.fromEntries(r.subRuns!.map((s) => [s.id, s.status]))).toEqual({
      fetch: 'failed',
      parse: 'skipped',
      report: 'skipped',
      other: 'completed',
    });
    expect(r.subRuns!.find((s) => s.id === 'fetch')!.error).toBeInstanceOf(Error);
    expect(r.text).toBe('Other work done.');
    const none = new Orchestrator({
      name: 'o2',
      failFast: false,
      tasks: [{ id: 'x', agent: scripted('x', [{ error: new Error('down') }]).agent }],
    });
    await expect(none.run('go')).rejects.toBeInstanceOf(WorkflowError);
  });
});
