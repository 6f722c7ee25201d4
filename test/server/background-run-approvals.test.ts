/**
 * Approvals of a background run go through the queue: a run submitted to server A (no worker)
 * pauses on a worker for a tool needing approval; the approval answered on server B (no worker
 * either) queues it again, a worker resumes it from its checkpoint, the tool runs once, and the
 * run's stream (from A) is one log: the paused `done`, then the rest up to the final `done`.
 * Real HTTP and one SQLite file; the model is the fake LLM server.
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

describe('approvals of a background run resume it through the queue', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  let ledger: string;
  const runtimes: Runtime[] = [];
  const servers: RunningServer[] = [];

  const start = async (worker: boolean) => {
    const guarded = tool<{ label: string }>({
      name: 'guarded',
      description: 'Does something that needs a human yes',
      parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
      requireApproval: true,
      execute: ({ label }) => {
        appendFileSync(ledger, `${label}\n`);
        return `did ${label}`;
      },
    });
    const runtime = await loadRuntime({ cwd: dir, tools: [guarded] });
    runtimes.push(runtime);
    const server = await serve({ runtime, port: 0, worker, logger: (await import('pino')).pino({ level: 'silent' }) });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
      const last = messages.at(-1);
      if (last?.role === 'tool') return { text: `finished: ${JSON.stringify(last.content)}` };
      return { toolCalls: [{ name: 'guarded', arguments: { label: 'deploy' } }] };
    });
    ({ dir, cleanup } = tempDir('corvid-bg-approval-'));
    ledger = join(dir, 'ledger.txt');
    writeConfig(
      dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nagents:\n  helper:\n    tools: [guarded]\n`,
    );
  });

  afterAll(async () => {
    for (const s of servers) await s.close({ timeoutMs: 1000 });
    for (const r of runtimes) await r.close();
    await llm.close();
    cleanup();
  });

  it('answered on another server, a worker resumes the run; the tool runs once; the stream is one log', async () => {
    const a = await start(false);
    const b = await start(false);
    await start(true);
    const { runId } = await (await post(`${a.url}/api/v1/runs`, { agent: 'helper', input: 'deploy it' })).json();
    const paused = await (await fetch(`${a.url}/api/v1/runs/${runId}?wait=30`)).json();
    expect(paused).toMatchObject({ runId, status: 'paused', attempts: 1 });
    // While paused, the stream ends with the paused done.
    const first = await readStream(`${a.url}/api/v1/runs/${runId}/stream`);
    expect(first.at(-1)).toMatchObject({ event: 'done', data: { status: 'paused' } });
    const pausedSeq = first.at(-1)!.seq;

    const { approvals } = await (await fetch(`${b.url}/api/v1/approvals?runId=${runId}`)).json();
    expect(approvals).toHaveLength(1);
    const answer = await post(`${b.url}/api/v1/approvals/${approvals[0].approvalId}`, { approved: true });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ status: 'queued', runId });
    // Answering twice: 409.
    expect((await post(`${b.url}/api/v1/approvals/${approvals[0].approvalId}`, { approved: true })).status).toBe(409);

    const done = await (await fetch(`${a.url}/api/v1/runs/${runId}?wait=30`)).json();
    expect(done).toMatchObject({ runId, status: 'completed', attempts: 2 });
    expect(done.result.text).toContain('did deploy');
    expect(readFileSync(ledger, 'utf8').split('\n').filter(Boolean)).toEqual(['deploy']);

    const rest = await readStream(`${a.url}/api/v1/runs/${runId}/stream?after=${pausedSeq}`);
    expect(rest[0].seq).toBe(pausedSeq + 1);
    expect(rest.some((e) => e.event === 'tool_result')).toBe(true);
    expect(rest.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    // From the start: the whole log, seqs 1…n, through both dones.
    const all = await readStream(`${a.url}/api/v1/runs/${runId}/stream`);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.filter((e) => e.event === 'done').map((e) => e.data.status)).toEqual(['paused', 'completed']);
  }, 90_000);
});
