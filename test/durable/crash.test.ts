import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/storage/index.js';
import { type ChildRun, startNodeChild } from './child-process.js';
import { promptText } from './support.js';

const CHILD = new URL('./fixtures/crash-child.mjs', import.meta.url).pathname;
const KILL_POINTS = ['before-tool', 'during-tool', 'after-tool', 'mid-stream'] as const;

let dir: string;
beforeAll(() => {
  if (!existsSync(new URL('../../dist/index.js', import.meta.url)))
    throw new Error('dist/ is missing: run "npm run build" before the crash tests');
  dir = mkdtempSync(join(tmpdir(), 'corvid-crash-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startChild(env: Record<string, string>): ChildRun {
  return startNodeChild(CHILD, env);
}

/** Starts (or resumes) the run and kills the child with SIGKILL at `point`; resolves with the run id. */
async function killAt(env: Record<string, string>, point: string): Promise<string> {
  const c = startChild({ ...env, KILL: point });
  const run = await c.waitFor('RUN ');
  await c.waitFor(`KILLPOINT ${point}`);
  c.child.kill('SIGKILL');
  expect((await c.exited).signal).toBe('SIGKILL');
  return run.split(' ')[1];
}

async function resumeToEnd(env: Record<string, string>, runId: string): Promise<{ lines: string[]; answer: string }> {
  const c = startChild({ ...env, MODE: 'resume', RUN_ID: runId });
  const answer = await c.waitFor('ANSWER ');
  const { code } = await c.exited;
  expect(code, c.stderr()).toBe(0);
  return { lines: c.lines, answer };
}

async function checkOutcome(db: string, record: string, runId: string, answer: string): Promise<void> {
  expect(answer).toBe(`ANSWER ${runId} "All work done: 1 and 2."`);
  // Each tool call completed exactly once, across every process.
  expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual(['c1', 'c2']);
  const store = await openStore({ driver: 'sqlite', path: db });
  try {
    // Nothing lost, nothing doubled: the whole conversation once, all from the one run.
    const entries = await store.sessions.entries('crash');
    expect(promptText(entries.map((e) => e.message!))).toEqual([
      'user: Do the work',
      'assistant: call work({"n":1})',
      'tool: result work {"type":"text","value":"done 1"}',
      'assistant: call work({"n":2})',
      'tool: result work {"type":"text","value":"done 2"}',
      'assistant: All work done: 1 and 2.',
    ]);
    expect(new Set(entries.map((e) => e.runId))).toEqual(new Set([runId]));
    expect((await store.checkpoints.getRun(runId))?.status).toBe('completed');
  } finally {
    await store.close();
  }
}

describe('crash safety: SIGKILL, then resume in a new process', () => {
  for (const point of KILL_POINTS) {
    it(`killed ${point}: the resumed run finishes without losing or repeating anything`, async () => {
      const db = join(dir, `${point}.db`);
      const record = join(dir, `${point}.log`);
      const env = { DB: db, RECORD: record, MODE: 'start' };
      const runId = await killAt(env, point);
      const { lines, answer } = await resumeToEnd(env, runId);
      expect(lines[0]).toBe(`RUN ${runId} resumed`);
      await checkOutcome(db, record, runId, answer);
    }, 60_000);
  }

  it('killed at every point of one run in turn, each time resumed by a new process', async () => {
    const db = join(dir, 'chain.db');
    const record = join(dir, 'chain.log');
    const env = { DB: db, RECORD: record, MODE: 'start' };
    const runId = await killAt(env, 'before-tool');
    for (const point of ['during-tool', 'after-tool', 'mid-stream']) {
      expect(await killAt({ ...env, MODE: 'resume', RUN_ID: runId }, point)).toBe(runId);
    }
    const { answer } = await resumeToEnd(env, runId);
    await checkOutcome(db, record, runId, answer);
  }, 90_000);
});
