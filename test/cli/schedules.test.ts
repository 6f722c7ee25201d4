/**
 * `schedules:` with real `corvid worker` processes on one SQLite file: with a cron of every
 * second, the two workers together submit exactly one run per tick (its id is the tick's), each
 * run executes once, and `corvid validate` names a bad cron expression with its line.
 */
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, type CliProcess, corvidIn, fakeModel, spawnCli, tempDir, writeConfig } from './cli-harness.js';

describe('schedules (cron) with two corvid worker processes on one SQLite database', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  let calls = 0;
  const children: CliProcess[] = [];

  beforeAll(async () => {
    llm = await startFakeLlmServer(() => {
      calls++;
      return { text: 'tock' };
    });
    ({ dir, cleanup } = tempDir('corvid-schedules-'));
  });

  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await llm.close();
    cleanup();
  });

  it('every tick gives exactly one run, whichever worker submits it', async () => {
    writeConfig(
      dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nagents:\n  helper:\n    instructions: Be brief.\nschedules:\n  tick:\n    agent: helper\n    input: tick\n    cron: "* * * * * *"\n`,
    );
    const env = cliEnv(dir);
    const workers = [spawnCli(['worker'], { cwd: dir, env }), spawnCli(['worker'], { cwd: dir, env })];
    children.push(...workers);
    for (const w of workers) await w.waitFor(/submitting the runs of 1 schedule\(s\): tick/, { stream: 'stderr', timeoutMs: 30_000 });
    const { openStore } = await import(pathToFileURL(`${process.cwd()}/dist/storage/index.js`).href);
    const store = await openStore({ path: `${dir}/runs.db` });
    try {
      const completed = async () =>
        (await store.backgroundRuns.list({ status: 'completed', limit: 1000 })) as { runId: string; attempts: number }[];
      await expect.poll(async () => (await completed()).length, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(5);
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('exit', r)))));
      const runs = [...(await completed()), ...(await store.backgroundRuns.list({ status: 'running', limit: 1000 }))];
      const ticks = runs.map((r) => Number(/^run_sch_tick_(\d+)$/.exec(r.runId)?.[1]));
      expect(ticks.every((t) => Number.isInteger(t))).toBe(true);
      // One run per tick (ids are the ticks' seconds), each started once, the model asked once per run.
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(runs.filter((r) => r.attempts > 1)).toEqual([]);
      const done = await completed();
      expect(calls).toBeGreaterThanOrEqual(done.length);
      expect(calls).toBeLessThanOrEqual(runs.length);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('corvid runs schedules shows the next tick; corvid runs submit --delay queues a delayed run', async () => {
    const listed = await corvidIn(dir, 'runs', 'schedules', '--json');
    expect(listed.code).toBe(0);
    const [tick] = JSON.parse(listed.stdout);
    expect(tick).toMatchObject({ name: 'tick', agent: 'helper', cron: '* * * * * *', missed: 'skip' });
    expect(Date.parse(tick.nextRunAt)).toBeGreaterThan(Date.now() - 5000);
    const t0 = Date.now();
    const submitted = await corvidIn(dir, 'runs', 'submit', 'helper', 'later please', '--delay', '10m', '--json');
    expect(submitted.code).toBe(0);
    const run = JSON.parse(submitted.stdout);
    expect(run).toMatchObject({ agent: 'helper', status: 'queued' });
    expect(Date.parse(run.runAt)).toBeGreaterThanOrEqual(t0 + 600_000);
    const bad = await corvidIn(dir, 'runs', 'submit', 'helper', 'x', '--delay', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--delay is a duration such as 30s, 10m/);
  }, 60_000);

  it('corvid validate names a bad cron expression, time zone or agent with its line', async () => {
    writeConfig(
      dir,
      `models:\n${fakeModel(llm.url)}agents:\n  helper:\n    model: fake\nschedules:\n  nightly:\n    agent: helper\n    input: report\n    cron: "61 * * * *"\n  weekly:\n    agent: nobody\n    input: x\n    cron: "@weekly"\n    timezone: Mars/Olympus\n`,
    );
    const { code, stdout, stderr } = await corvidIn(dir, 'validate');
    const out = stdout + stderr;
    expect(code).not.toBe(0);
    expect(out).toMatch(/:\d+:\d+ +schedules\.nightly\.cron: invalid cron expression "61 \* \* \* \*": Invalid value for minute: 61/);
    expect(out).toMatch(/:\d+:\d+ +schedules\.weekly\.agent: unknown agent "nobody"/);
    expect(out).toMatch(/:\d+:\d+ +schedules\.weekly\.timezone: unknown time zone "Mars\/Olympus"/);
  });
});
