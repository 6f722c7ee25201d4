/**
 * `corvid serve --no-worker` and `corvid worker` as real processes on one SQLite file: runs
 * submitted to the server are executed by the workers; a worker killed with SIGKILL mid-run
 * loses nothing (another worker resumes its runs from their checkpoints) and no finished tool
 * call runs again (the tool appends to a ledger file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, type CliProcess, fakeModel, spawnCli, tempDir, writeConfig } from './cli-harness.js';

const RUNS = 24;

const TOOLS = `import { appendFileSync } from 'node:fs';
import { tool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
export const record = tool({
  name: 'record',
  description: 'Records a label',
  parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  execute: ({ label }) => { appendFileSync(process.env.LEDGER, label + '\\n'); return 'recorded ' + label; },
});
`;

describe('corvid worker (child processes on one SQLite database)', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  const children: CliProcess[] = [];

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
      const last = messages.at(-1);
      // After the tool: a slow answer, so runs are caught mid-flight.
      if (last?.role === 'tool') return { text: `done ${JSON.stringify(last.content)}`, delayMs: 400 };
      const label = JSON.stringify(last?.content ?? '').replace(/\W/g, '');
      return { toolCalls: [{ name: 'record', arguments: { label } }] };
    });
    ({ dir, cleanup } = tempDir('corvid-worker-'));
    writeConfig(dir, TOOLS, 'tools.mjs');
    writeConfig(
      dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\ntools:\n  t: { module: ./tools.mjs }\nstorage:\n  path: ./runs.db\nqueue:\n  concurrency: 4\nagents:\n  helper:\n    tools: [t.record]\n`,
    );
  });

  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await llm.close();
    cleanup();
  });

  it('runs submitted to a --no-worker server execute on the workers; a kill -9 loses no run and repeats no tool', async () => {
    const env = cliEnv(dir, { LEDGER: join(dir, 'ledger.txt') });
    const server = spawnCli(['serve', '--port', '0', '--no-worker'], { cwd: dir, env });
    children.push(server);
    const url = /listening on (http\S+)/.exec(await server.waitFor(/listening on http\S+/, { stream: 'stderr', timeoutMs: 20_000 }))![1];
    const workers = [spawnCli(['worker'], { cwd: dir, env }), spawnCli(['worker', '--concurrency', '4'], { cwd: dir, env })];
    children.push(...workers);
    for (const w of workers)
      await w.waitFor(/corvid worker: executing queued runs \(embedded queue/, { stream: 'stderr', timeoutMs: 20_000 });

    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const res = await fetch(`${url}/api/v1/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent: 'helper', input: `job ${i}` }),
      });
      expect(res.status).toBe(202);
      ids.push((await res.json()).runId);
    }
    // Kill the first worker while it has runs in flight (a tool done, the model still answering).
    const ledger = join(dir, 'ledger.txt');
    await expect
      .poll(() => readFileSync(ledger, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(6);
    workers[0].child.kill('SIGKILL');

    const runs = [];
    for (const id of ids) runs.push(await (await fetch(`${url}/api/v1/runs/${id}?wait=60`)).json());
    expect(runs.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    expect(runs.some((r) => r.attempts > 1)).toBe(true);
    const labels = readFileSync(ledger, 'utf8').split('\n').filter(Boolean).sort();
    expect(labels).toEqual(Array.from({ length: RUNS }, (_, i) => `job${i}`).sort());
    // The stream of a run taken over reads as one log: seqs 1…n with no gap, ending with done.
    const taken = runs.find((r) => r.attempts > 1)!;
    const text = await (await fetch(`${url}/api/v1/runs/${taken.runId}/stream`)).text();
    const seqs = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(text).toMatch(/event: done\ndata: \{[^\n]*"status":"completed"/);
  }, 120_000);
});
