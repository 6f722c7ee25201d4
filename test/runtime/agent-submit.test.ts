/**
 * `agent.submit()` on an agent of a loaded runtime, through the public API, on a real SQLite
 * store: the run is queued, a worker of the runtime runs it, `runtime.runs.stream(runId, { after })`
 * reads its numbered events (all of them, or only those after a seq already seen), and
 * `runtime.runs.wait()` gives its result. A plain `new Agent()` has no queue to submit to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent, DurableRunError } from '../../src/index.js';
import { loadRuntime, type Runtime } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import type { QueueWorker } from '../../src/types/run-queue.js';
import { fakeModel, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

describe('agent.submit() on SQLite', () => {
  let llm: FakeLlmServer;
  let cleanup: () => void;
  let runtime: Runtime;
  let worker: QueueWorker | undefined;

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const last = (req.body?.messages ?? []).at(-1) as { content: unknown } | undefined;
      return { text: `summary of ${JSON.stringify(last?.content ?? '')} in several words` };
    });
    let dir: string;
    ({ dir, cleanup } = tempDir('corvid-submit-'));
    writeConfig(
      dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nagents:\n  helper:\n    instructions: Be brief.\n`,
    );
    runtime = await loadRuntime({ cwd: dir });
  });
  afterAll(async () => {
    await worker?.stop();
    await runtime?.close();
    await llm?.close();
    cleanup?.();
  });

  it('queues a run of the agent that a worker runs; its events stream from the start or after a seq', async () => {
    const run = await runtime.agent('helper').submit('the quarterly report', { session: 'ses-submit' });
    expect(run).toMatchObject({ agent: 'helper', input: 'the quarterly report', status: 'queued', sessionId: 'ses-submit' });
    expect((await runtime.runs.get(run.runId))?.status).toBe('queued');
    worker = await runtime.runs.work({ schedules: false });

    const all = [];
    for await (const e of runtime.runs.stream(run.runId, { after: 0 })) all.push(e);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed' } });
    expect(all.some((e) => e.type === 'text_delta')).toBe(true);

    // A reader that saw the first three events gets exactly the rest.
    const rest = [];
    for await (const e of runtime.runs.stream(run.runId, { after: 3 })) rest.push(e);
    expect(rest.map((e) => [e.seq, e.type])).toEqual(all.slice(3).map((e) => [e.seq, e.type]));

    const done = await runtime.runs.wait(run.runId, { timeoutMs: 10_000 });
    expect(done?.status).toBe('completed');
    expect((done?.result as { text?: string } | undefined)?.text).toBe('summary of "the quarterly report" in several words');
    // The run belongs to the session it was submitted with.
    const store = await runtime.store();
    expect((await store.sessions.get('ses-submit'))?.agent).toBe('helper');
  });

  it('refuses a plain Agent, which has no runtime queue, naming what is missing', async () => {
    const plain = new Agent({ name: 'loner', instructions: '-', model: new ScriptedModel([{ text: 'hi' }]) });
    const err = await plain.submit('hello').catch((e: unknown) => e);
    expect(DurableRunError.isInstance(err)).toBe(true);
    expect((err as DurableRunError).kind).toBe('invalid');
    expect((err as Error).message).toMatch(/Agent "loner" has no queue for background runs.*runtime\.agent\('loner'\)\.submit/);
  });
});
