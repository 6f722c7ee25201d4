/**
 * The postgres queue (pg-boss) with storage on Postgres, as real processes: `serve --no-worker`
 * (A) accepts runs, `serve` (B) and two `worker`s (C, K) execute them. 200 runs submitted to A
 * are executed across the workers; their streams read from B are complete (seqs 1…n, no gap,
 * `done` last); K is killed with SIGKILL mid-run and its runs finish elsewhere — none lost, no
 * finished tool call run again (the tool appends `label pid` to a ledger file); a cancel sent to
 * an instance that is not running the run stops it within a second.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, cliEnv, type CliProcess, fakeModel, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { postJson as post, readRunStream as readStream } from '../support/run-stream.js';

const PG_URL = process.env.CORVID_TEST_POSTGRES_URL;
const SKIP = PG_URL ? undefined : 'CORVID_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test; .ci/run sets it)';
if (SKIP) console.log(`[queue] postgres cluster test skipped: ${SKIP}`);

const RUNS = 200;
const schema = `corvid_pgq_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

const TOOLS = `import { appendFileSync } from 'node:fs';
import { tool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
export const record = tool({
  name: 'record',
  description: 'Records a label',
  parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  execute: ({ label }) => { appendFileSync(process.env.LEDGER, label + ' ' + process.pid + '\\n'); return 'recorded ' + label; },
});
`;

/** The ledger's lines (`label pid`). */
let ledger = '';
const lines = () => readFileSync(ledger, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean);
/** The labels of the tools process `pid` ran. */
const ledgerOf = (pid: string) =>
  pid
    ? lines()
        .filter((l) => l.endsWith(` ${pid}`))
        .map((l) => l.split(' ')[0])
    : [];

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

describe.skipIf(Boolean(SKIP))('the postgres queue across processes (storage on Postgres)', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  const children: CliProcess[] = [];
  /** Labels whose run asked the model again after its tool: the tool's result is checkpointed. */
  const checkpointed = new Set<string>();
  let kPid = '';
  let killK: () => void = () => undefined;

  beforeAll(async () => {
    assertBuilt();
    // Each process sends its name (x-worker). K's runs are held at the model once their tool has
    // run, and K gets no new tool call after its fourth: K is killed once all its tools' results
    // are checkpointed, so a tool that ran twice would be a finished tool run again.
    llm = await startFakeLlmServer((req) => {
      const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
      const last = messages.at(-1);
      const first = JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? '');
      const label = first.replace(/\W/g, '');
      const fromK = req.headers['x-worker'] === 'K';
      if (last?.role === 'tool') {
        checkpointed.add(label);
        if (fromK) {
          killK();
          return { text: 'too late', delayMs: 60_000 };
        }
        // The slow run streams for half a minute unless cancelled; the others answer after a short wait.
        if (first.includes('slow')) return { text: Array.from({ length: 150 }, (_, i) => `w${i} `).join(''), chunkDelayMs: 200 };
        return { text: `done ${JSON.stringify(last.content)}`, delayMs: 200 };
      }
      if (fromK && ledgerOf(kPid).length >= 4) return { text: 'too late', delayMs: 60_000 };
      return { toolCalls: [{ name: 'record', arguments: { label } }] };
    });
    ({ dir, cleanup } = tempDir('corvid-pgq-'));
    ledger = join(dir, 'ledger.txt');
    writeConfig(dir, TOOLS, 'tools.mjs');
    writeConfig(
      dir,
      // Model calls are retried: under load, a kept-alive connection the fake server has just closed may be reused.
      `models:\n${fakeModel(llm.url).replace('max_retries: 0', 'max_retries: 3')}    headers:\n      x-worker: "\${WORKER}"\ndefaults:\n  model: fake\ntools:\n  t: { module: ./tools.mjs }\n` +
        `storage:\n  url: "${PG_URL}"\n  schema: ${schema}\n` +
        `queue:\n  backend: postgres\n  concurrency: 8\n  visibility_timeout_s: 3\n` +
        `agents:\n  helper:\n    tools: [t.record]\n`,
    );
  });

  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await llm?.close();
    cleanup?.();
    if (SKIP) return;
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client
      .query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE`)
      .finally(() => client.end());
  });

  it('200 runs submitted to one server run on three workers; a kill -9 loses none and repeats no tool; a cancel stops a run within 1 s', async () => {
    const env = (name: string) => cliEnv(dir, { LEDGER: ledger, WORKER: name });
    const listening = async (p: CliProcess) =>
      /listening on (http\S+)/.exec(await p.waitFor(/listening on http\S+/, { stream: 'stderr', timeoutMs: 30_000 }))![1];
    const a = spawnCli(['serve', '--port', '0', '--no-worker'], { cwd: dir, env: env('A') });
    const b = spawnCli(['serve', '--port', '0'], { cwd: dir, env: env('B') });
    const c = spawnCli(['worker'], { cwd: dir, env: env('C') });
    const k = spawnCli(['worker'], { cwd: dir, env: env('K') });
    children.push(a, b, c, k);
    kPid = String(k.child.pid);
    const [urlA, urlB] = [await listening(a), await listening(b)];
    for (const w of [c, k]) await w.waitFor(/executing queued runs \(postgres queue/, { stream: 'stderr', timeoutMs: 30_000 });
    const killed = new Promise<void>((resolve) => {
      killK = () => {
        const mine = ledgerOf(kPid);
        if (mine.length < 4 || !mine.every((l) => checkpointed.has(l))) return;
        k.child.kill('SIGKILL');
        killK = () => undefined;
        resolve();
      };
    });

    const ids = await inBatches(
      Array.from({ length: RUNS }, (_, i) => i),
      20,
      async (i) => {
        const res = await post(`${urlA}/api/v1/runs`, { agent: 'helper', input: `job ${i}` });
        expect(res.status).toBe(202);
        return (await res.json()).runId as string;
      },
    );
    // Followed from B while they run: from the start, and one from after its second event.
    const streams = [0, 1, 2, 3, 4, 5].map((i) => readStream(`${urlB}/api/v1/runs/${ids[i]}/stream`));
    const resumed = readStream(`${urlB}/api/v1/runs/${ids[6]}/stream?after=2`);
    await killed;

    const runs = await inBatches(ids, 25, async (id) => (await fetch(`${urlA}/api/v1/runs/${id}?wait=60`)).json());
    expect(runs.filter((r) => r.status !== 'completed')).toEqual([]);
    expect(runs.filter((r) => r.attempts > 1).length).toBeGreaterThanOrEqual(4); // K's runs, taken over
    const ledgerLines = lines();
    const label = (l: string) => l.split(' ')[0];
    // Every tool once: none lost, none repeated.
    expect(ledgerLines.filter((l) => ledgerLines.filter((m) => label(m) === label(l)).length > 1)).toEqual([]);
    expect(ledgerLines.map(label).sort()).toEqual(Array.from({ length: RUNS }, (_, i) => `job${i}`).sort());
    const pids = new Set(ledgerLines.map((l) => l.split(' ')[1]));
    expect(pids).toEqual(new Set([String(b.child.pid), String(c.child.pid), kPid])); // B, C and K all took runs

    for (const events of [...(await Promise.all(streams)), await resumed]) {
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    }
    expect((await Promise.all(streams)).map((events) => events[0].seq)).toEqual([1, 1, 1, 1, 1, 1]);
    expect((await resumed)[0].seq).toBe(3);

    // A cancel sent to an instance that is not running the run.
    const slow = await (await post(`${urlA}/api/v1/runs`, { agent: 'helper', input: 'slow one' })).json();
    await expect.poll(() => lines().find((l) => l.startsWith('slowone ')), { timeout: 30_000 }).toBeDefined();
    const executor = lines()
      .find((l) => l.startsWith('slowone '))!
      .split(' ')[1];
    const other = executor === String(b.child.pid) ? urlA : urlB;
    const res = await fetch(`${other}/api/v1/runs/${slow.runId}/stream`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: text_delta')) text += (await reader.read()).value ?? '';
    const cancelAt = Date.now();
    expect((await post(`${other}/api/v1/runs/${slow.runId}/cancel`)).status).toBe(202);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const stoppedMs = Date.now() - cancelAt;
    expect(text).toMatch(/event: done\ndata: \{[^\n]*"status":"cancelled"/);
    expect(stoppedMs).toBeLessThan(1000);
    expect((await (await fetch(`${urlA}/api/v1/runs/${slow.runId}`)).json()).status).toBe('cancelled');
    console.log(`[queue] postgres cluster: ${RUNS} runs on ${pids.size} workers; cancel → done in ${stoppedMs} ms`);
  }, 240_000);
});
