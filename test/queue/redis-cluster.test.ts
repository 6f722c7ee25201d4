/**
 * The redis queue across real processes: `corvid serve --no-worker` (A, takes submissions),
 * `corvid serve` (B, executes and streams) and `corvid worker` (C, executes) on one SQLite file,
 * with BullMQ carrying the run ids and Redis Streams the run events. 200 runs submitted to A
 * are executed by B and C; streams read from B are complete and resume after a reconnect; C
 * killed with SIGKILL mid-run loses no run and repeats no finished tool call (the tool appends to
 * a ledger file); a cancel sent to A stops a run executing elsewhere within a second.
 * Needs CORVID_TEST_REDIS_URL (the run uses its own key prefix and deletes its keys).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliEnv, type CliProcess, fakeModel, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

const REDIS_URL = process.env.CORVID_TEST_REDIS_URL;
if (!REDIS_URL)
  console.log('[queue] redis cluster suite skipped: CORVID_TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379; .ci/run sets it)');

const RUNS = 200;

const TOOLS = `import { appendFileSync } from 'node:fs';
import { tool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
export const record = tool({
  name: 'record',
  description: 'Records a label',
  parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  execute: ({ label }) => { appendFileSync(process.env.LEDGER, label + ' ' + process.pid + '\\n'); return 'recorded ' + label; },
});
`;

interface SseEvent {
  seq: number;
  type: string;
  data: any;
}

/** Reads a run's SSE stream; with `until`, stops (closing the connection) once an event matches it. */
async function readStream(url: string, until?: (e: SseEvent) => boolean): Promise<SseEvent[]> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block);
        if (!id) continue;
        const e = { seq: Number(id[1]), type: /^event: (.*)$/m.exec(block)![1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]) };
        events.push(e);
        if (until?.(e)) {
          controller.abort();
          return events;
        }
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return events;
}

/** Each run's ledger lines: label → the pids whose tool recorded it. */
function ledgerOf(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of readFileSync(file, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean)) {
    const [label, pid] = line.split(' ');
    out.set(label, [...(out.get(label) ?? []), pid]);
  }
  return out;
}

describe.skipIf(!REDIS_URL)('redis queue: serve --no-worker, serve and worker processes on one store', () => {
  const prefix = `corvid-test-${randomBytes(4).toString('hex')}`;
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  const children: CliProcess[] = [];

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
      const input = JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? '');
      const last = messages.at(-1);
      // After the tool: the answer takes a while (the slow run's never ends), so runs are caught mid-flight.
      if (last?.role === 'tool' && input.includes('slow')) return { text: 'never finished', stallAfterChunks: 1 };
      if (last?.role === 'tool') return { text: `done ${JSON.stringify(last.content)}`, delayMs: 300 };
      return { toolCalls: [{ name: 'record', arguments: { label: input.replace(/\W/g, '') } }] };
    });
    ({ dir, cleanup } = tempDir('corvid-redis-'));
    writeConfig(dir, TOOLS, 'tools.mjs');
    writeConfig(
      dir,
      // Model calls are retried: under load, a kept-alive connection the fake server has just closed may be reused.
      `models:\n${fakeModel(llm.url).replace('max_retries: 0', 'max_retries: 3')}defaults:\n  model: fake\ntools:\n  t: { module: ./tools.mjs }\nstorage:\n  path: ./runs.db\n` +
        `queue:\n  backend: redis\n  url: ${REDIS_URL}\n  prefix: ${prefix}\n  concurrency: 8\n  visibility_timeout_s: 3\n` +
        `agents:\n  helper:\n    tools: [t.record]\n`,
    );
  });

  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await llm?.close();
    cleanup?.();
    if (!REDIS_URL) return;
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('executes 200 runs across workers, streams them from another instance, survives a kill -9 and cancels across processes', async () => {
    const ledger = join(dir, 'ledger.txt');
    const env = cliEnv(dir, { LEDGER: ledger });
    const listening = async (p: CliProcess) =>
      /listening on (http\S+)/.exec(await p.waitFor(/listening on http\S+/, { stream: 'stderr', timeoutMs: 30_000 }))![1];
    const a = spawnCli(['serve', '--port', '0', '--no-worker'], { cwd: dir, env });
    const b = spawnCli(['serve', '--port', '0'], { cwd: dir, env });
    const c = spawnCli(['worker'], { cwd: dir, env });
    children.push(a, b, c);
    const [urlA, urlB] = await Promise.all([listening(a), listening(b)]);
    await c.waitFor(/corvid worker: executing queued runs \(redis queue/, { stream: 'stderr', timeoutMs: 30_000 });
    const submit = async (input: string, to = urlA) => {
      const res = await fetch(`${to}/api/v1/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent: 'helper', input }),
      });
      expect(res.status).toBe(202);
      return (await res.json()).runId as string;
    };

    // A cancel sent to A stops a run executing on B or C within a second: its model call (under way) is dropped.
    const slow = await submit('slow one', urlB);
    const slowCall = () =>
      llm.requests.find((r) => JSON.stringify(r.body?.messages ?? []).includes('slow one') && r.body.messages.at(-1).role === 'tool');
    await expect.poll(slowCall, { timeout: 30_000 }).toBeDefined();
    const slowStream = readStream(`${urlB}/api/v1/runs/${slow}/stream`);
    slowStream.catch(() => undefined); // awaited below
    expect((await fetch(`${urlA}/api/v1/runs/${slow}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
    // From the moment A has stored the cancel (its answer).
    const cancelledAt = Date.now();
    await expect.poll(() => slowCall()!.clientClosedAt, { timeout: 10_000, interval: 20 }).toBeDefined();
    expect(slowCall()!.clientClosedAt! - cancelledAt).toBeLessThan(1000);
    expect((await (await fetch(`${urlA}/api/v1/runs/${slow}?wait=30`)).json()).status).toBe('cancelled');
    const slowEvents = await slowStream;
    expect(slowEvents.at(-1)).toMatchObject({ type: 'done', data: { status: 'cancelled' } });

    // 200 runs submitted to A.
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i += 20) ids.push(...(await Promise.all(Array.from({ length: 20 }, (_, k) => submit(`job ${i + k}`)))));

    // Streams from B while they run: one read whole, one cut after its first event and resumed with `after`.
    const whole = readStream(`${urlB}/api/v1/runs/${ids[3]}/stream`);
    const resumed = (async () => {
      const first = await readStream(`${urlB}/api/v1/runs/${ids[5]}/stream`, (e) => e.seq >= 2);
      const rest = await readStream(`${urlB}/api/v1/runs/${ids[5]}/stream?after=${first.at(-1)!.seq}`);
      return [...first, ...rest];
    })();

    // (Awaited below; a failure before then must not also surface as an unhandled rejection.)
    for (const p of [whole, resumed]) p.catch(() => undefined);

    // Kill C while it has runs in flight (a tool done, the model still answering).
    const cPid = String(c.child.pid);
    await expect
      .poll(() => [...ledgerOf(ledger).values()].filter((pids) => pids.includes(cPid)).length, { timeout: 30_000, interval: 20 })
      .toBeGreaterThanOrEqual(4);
    c.child.kill('SIGKILL');

    const runs: Array<{ runId: string; status: string; attempts: number }> = [];
    for (let i = 0; i < RUNS; i += 20)
      runs.push(...(await Promise.all(ids.slice(i, i + 20).map(async (id) => (await fetch(`${urlA}/api/v1/runs/${id}?wait=60`)).json()))));
    // 0 lost.
    expect(runs.filter((r) => r.status !== 'completed')).toEqual([]);
    // C's runs in flight were taken over by B.
    expect(runs.some((r) => r.attempts > 1)).toBe(true);
    // Every tool call ran once, across at least two workers.
    const recorded = ledgerOf(ledger);
    const labels = Array.from({ length: RUNS }, (_, i) => `job${i}`);
    expect(labels.filter((l) => recorded.get(l)?.length !== 1)).toEqual([]);
    expect(new Set(labels.map((l) => recorded.get(l)![0])).size).toBeGreaterThanOrEqual(2);

    // The streams: seqs 1…n without a gap, ending with done.
    for (const events of [await whole, await resumed]) {
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed' } });
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call', 'tool_result']));
    }
    // A run taken over reads as one log too.
    const taken = runs.find((r) => r.attempts > 1)!;
    const events = await readStream(`${urlB}/api/v1/runs/${taken.runId}/stream`);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed' } });
  }, 150_000);
});
