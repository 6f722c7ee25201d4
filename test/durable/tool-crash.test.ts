import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/storage/index.js';
import { startNodeChild } from './child-process.js';

const CHILD = new URL('./fixtures/parallel-tools-child.mjs', import.meta.url).pathname;

let dir: string;
beforeAll(() => {
  if (!existsSync(new URL('../../dist/index.js', import.meta.url)))
    throw new Error('dist/ is missing: run "npm run build" before the crash tests');
  dir = mkdtempSync(join(tmpdir(), 'corvid-tool-crash-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every execution of a tool, in order: its call id and the idempotency key it was given. */
function executions(file: string): Array<{ id: string; key: string }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [id, key] = l.split(' ');
      return { id, key };
    });
}

/**
 * Runs three parallel tools in a child, SIGKILLs it at `kill` (see the fixture), resumes the run
 * in a new process and checks the run finished with the conversation stored once.
 */
async function crashThenResume(kill: 'ack' | 'unstored' | 'race') {
  const db = join(dir, `${kill}.db`);
  const record = join(dir, `${kill}.log`);
  const c = startNodeChild(CHILD, { DB: db, RECORD: record, MODE: 'start', KILL: kill });
  const runId = (await c.waitFor('RUN ')).split(' ')[1];
  // ack: the third tool_result is out; unstored / race: the three tools did their side effect.
  await c.waitForCount(kill === 'ack' ? 'TOOL_RESULT ' : 'DONE ', 3);
  c.child.kill('SIGKILL');
  expect((await c.exited).signal).toBe('SIGKILL');
  const before = executions(record);

  const r = startNodeChild(CHILD, { DB: db, RECORD: record, MODE: 'resume', RUN_ID: runId });
  const answer = await r.waitFor('ANSWER ');
  expect((await r.exited).code, r.stderr()).toBe(0);
  expect(r.lines[0]).toBe(`RUN ${runId} resumed`);
  expect(answer).toBe(`ANSWER ${runId} "All three done."`);

  const after = executions(record);
  const ids = [...new Set(before.map((e) => e.id))];
  // One model response: three calls, each with the key `<run id>:<call id>`.
  expect(ids).toHaveLength(3);
  expect(new Set(ids.map((id) => id.split('_')[1])).size).toBe(1);
  for (const e of after) expect(e.key).toBe(`${runId}:${e.id}`);
  // A resumed run executes only the calls of that response (same ids, same keys), never new ones.
  expect(new Set(after.map((e) => e.id))).toEqual(new Set(ids));

  const store = await openStore({ driver: 'sqlite', path: db });
  try {
    const entries = await store.sessions.entries('tools');
    expect(entries.map((e) => e.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(new Set(entries.map((e) => e.runId))).toEqual(new Set([runId]));
    const toolMessage = entries[2].message!;
    const results =
      toolMessage.role === 'tool' ? toolMessage.content.map((p) => (p.type === 'tool-result' ? [p.toolCallId, p.output] : p.type)) : [];
    expect(results).toEqual(ids.sort().map((id, i) => [id, { type: 'text', value: `done ${i + 1}` }]));
    expect((await store.checkpoints.getRun(runId))?.status).toBe('completed');
  } finally {
    await store.close();
  }
  return { before, after };
}

describe('crash safety of parallel tools: SIGKILL right after they finish, then resume', () => {
  it('killed as the last tool_result is emitted: every result was stored first, no tool runs again', async () => {
    const { before, after } = await crashThenResume('ack');
    expect(before).toHaveLength(3);
    expect(after).toEqual(before);
  }, 60_000);

  it('killed after the side effects but before the results were stored: each call runs again with the same idempotencyKey', async () => {
    const { before, after } = await crashThenResume('unstored');
    expect(before).toHaveLength(3);
    expect(after).toHaveLength(6);
    for (const e of before) expect(after.filter((x) => x.id === e.id)).toEqual([e, e]);
  }, 60_000);

  it('killed the moment the three side effects are done (racing their checkpoint): at most one re-run per call, same key', async () => {
    const { before, after } = await crashThenResume('race');
    expect(before).toHaveLength(3);
    for (const e of before) {
      const runs = after.filter((x) => x.id === e.id);
      expect(runs.length).toBeGreaterThanOrEqual(1);
      expect(runs.length).toBeLessThanOrEqual(2);
      expect(new Set(runs.map((x) => x.key))).toEqual(new Set([e.key]));
    }
  }, 60_000);
});
