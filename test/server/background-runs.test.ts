/**
 * Background runs over real HTTP on SQLite: `POST /api/v1/runs` answers at once, a worker runs
 * the run, `GET /api/v1/runs/{id}?wait=` and the SSE stream (resumable with `after` /
 * `Last-Event-ID`) show it from any server on the same database, and cancel stops it wherever
 * it runs. The model is the fake LLM server speaking Chat Completions.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tool } from '../../src/core/tool.js';
import { loadRuntime, type Runtime } from '../../src/runtime/load-runtime.js';
import { type RunningServer, serve } from '../../src/server/app/serve.js';
import { fakeModel, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { postJson as post, readRunStream as readStream } from '../support/run-stream.js';

describe('background runs (POST /api/v1/runs) on SQLite', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  let ledger: string;
  const runtimes: Runtime[] = [];
  const servers: RunningServer[] = [];
  let worker: RunningServer;
  let acceptor: RunningServer;
  /** When the model was first asked about each delayed input. */
  const asked = new Map<string, number>();

  const start = async (workerOn: boolean) => {
    const record = tool<{ label: string }>({
      name: 'record',
      description: 'Records a label',
      parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
      execute: ({ label }) => {
        appendFileSync(ledger, `${label}\n`);
        return `recorded ${label}`;
      },
    });
    const runtime = await loadRuntime({ cwd: dir, tools: [record] });
    runtimes.push(runtime);
    const server = await serve({ runtime, port: 0, worker: workerOn, logger: (await import('pino')).pino({ level: 'silent' }) });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
      const last = messages.at(-1);
      if (last?.role === 'tool') return { text: `done: ${JSON.stringify(last.content)}` };
      const input = JSON.stringify(last?.content ?? '');
      if (input.includes('delayed') && !asked.has(input)) asked.set(input, Date.now());
      if (input.includes('slow')) return { text: 'a b c d e f g h i j', chunkDelayMs: 500 };
      if (input.includes('tool')) return { toolCalls: [{ name: 'record', arguments: { label: input.replace(/\W/g, '') } }] };
      return { text: `answer to ${input}` };
    });
    ({ dir, cleanup } = tempDir('corvid-bg-'));
    ledger = join(dir, 'ledger.txt');
    writeConfig(
      dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nagents:\n  helper:\n    instructions: Be brief.\n    tools: [record]\n`,
    );
    worker = await start(true);
    acceptor = await start(false);
  });

  afterAll(async () => {
    for (const s of servers) await s.close({ timeoutMs: 1000 });
    for (const r of runtimes) await r.close();
    await llm.close();
    cleanup();
  });

  it('answers 202 at once; a worker on the same database runs it; ?wait returns the result', async () => {
    const res = await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'use the tool please' });
    expect(res.status).toBe(202);
    const queued = await res.json();
    expect(queued).toMatchObject({ agent: 'helper', status: 'queued' });
    expect(queued.runId).toMatch(/^run_/);
    const done = await (await fetch(`${acceptor.url}/api/v1/runs/${queued.runId}?wait=20`)).json();
    expect(done).toMatchObject({ runId: queued.runId, status: 'completed', attempts: 1 });
    expect(done.result.text).toContain('done: ');
    expect(readFileSync(ledger, 'utf8')).toContain('usethetoolplease');
  });

  it('streams the events with seq ids from the instance that did not run it, and resumes after a cursor', async () => {
    const { runId } = await (await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'hello there' })).json();
    const all = await readStream(`${acceptor.url}/api/v1/runs/${runId}/stream`);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all[0].event).toBe('run_start');
    expect(all.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    expect(all.some((e) => e.event === 'answer' && String(e.data.text).includes('hello there'))).toBe(true);
    const tail = await readStream(`${worker.url}/api/v1/runs/${runId}/stream?after=2`);
    expect(tail.map((e) => e.seq)).toEqual(all.slice(2).map((e) => e.seq));
    const resumed = await readStream(`${acceptor.url}/api/v1/runs/${runId}/stream`, { 'last-event-id': String(all.length - 1) });
    expect(resumed.map((e) => e.event)).toEqual(['done']);
  });

  it('cancel on the accepting instance stops the run on the worker within a second', async () => {
    const { runId } = await (await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'slow story' })).json();
    const events = (await fetch(`${acceptor.url}/api/v1/runs/${runId}/stream`)).body!.getReader();
    // Wait for the run to be generating on the worker.
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('text_delta')) seen += decoder.decode((await events.read()).value);
    const t0 = performance.now();
    const cancel = await post(`${acceptor.url}/api/v1/runs/${runId}/cancel`, {});
    expect(cancel.status).toBe(202);
    const run = await (await fetch(`${acceptor.url}/api/v1/runs/${runId}?wait=5`)).json();
    const elapsed = performance.now() - t0;
    expect(run).toMatchObject({ status: 'cancelled', error: { code: 'run_cancelled' } });
    expect(elapsed).toBeLessThan(1000);
    for (;;) {
      const chunk = await events.read();
      if (chunk.done) break;
      seen += decoder.decode(chunk.value);
    }
    expect(seen).toMatch(/event: done\ndata: \{[^\n]*"status":"cancelled"/);
  });

  it('a run cancelled while queued never starts', async () => {
    const { runId } = await (await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'later', delaySeconds: 60 })).json();
    const cancel = await (await post(`${acceptor.url}/api/v1/runs/${runId}/cancel`, {})).json();
    expect(cancel).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(await readStream(`${acceptor.url}/api/v1/runs/${runId}/stream`)).toEqual([]);
  });

  it('a delayed run (delaySeconds or runAt) does not start before its time and starts after it', async () => {
    const t0 = Date.now();
    const byDelay = await (await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'delayed one', delaySeconds: 1.5 })).json();
    const at = new Date(t0 + 2000).toISOString();
    const byTime = await (await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'delayed two', runAt: at })).json();
    expect(byDelay).toMatchObject({ status: 'queued' });
    expect(Date.parse(byDelay.runAt)).toBeGreaterThanOrEqual(t0 + 1500);
    expect(byTime).toMatchObject({ status: 'queued', runAt: at });
    const one = await (await fetch(`${acceptor.url}/api/v1/runs/${byDelay.runId}?wait=30`)).json();
    const two = await (await fetch(`${acceptor.url}/api/v1/runs/${byTime.runId}?wait=30`)).json();
    expect([one.status, two.status]).toEqual(['completed', 'completed']);
    expect(asked.get('"delayed one"')).toBeGreaterThanOrEqual(t0 + 1500);
    expect(asked.get('"delayed two"')).toBeGreaterThanOrEqual(t0 + 2000);
  });

  it('bad delays get clear 400s', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ delaySeconds: -1 }, /delaySeconds is not negative/],
      [{ delaySeconds: 'soon' }, /delaySeconds is a number of seconds/],
      [{ runAt: 'tomorrow' }, /runAt is an ISO 8601 time/],
      [{ runAt: '2026-01-31T09:00:00' }, /runAt is an ISO 8601 time with a zone/],
      [{ runAt: new Date(Date.now() + 2 * 31_536_000_000).toISOString() }, /at most a year/],
      [{ delaySeconds: 5, runAt: new Date().toISOString() }, /not both/],
    ];
    for (const [extra, message] of cases) {
      const res = await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'x', ...(extra as object) });
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toMatch(message);
    }
  });

  it('bad requests get clear 4xx answers', async () => {
    const missing = await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toMatch(/input/);
    const unknown = await post(`${acceptor.url}/api/v1/runs`, { agent: 'nobody', input: 'x' });
    expect(unknown.status).toBe(404);
    const hook = await post(`${acceptor.url}/api/v1/runs`, { agent: 'helper', input: 'x', webhook: 'ftp://example' });
    expect(hook.status).toBe(400);
    expect((await hook.json()).error.message).toMatch(/webhook/);
    expect((await fetch(`${acceptor.url}/api/v1/runs/run_nope?wait=1`)).status).toBe(404);
  });
});
