/**
 * A submitted run whose worker died after the run had completed but before its record said so
 * (a kill -9 in that window): the next worker records it `completed` with its answer and closes
 * its event log, without calling the model again. SQLite store, the fake LLM server as model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadRuntime, type Runtime } from '../../src/runtime/load-runtime.js';
import { fakeModel, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

describe('a submitted run completed by a worker that died before recording it', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  let runtime: Runtime;

  beforeAll(async () => {
    llm = await startFakeLlmServer([{ text: 'The answer is 42.' }]);
    ({ dir, cleanup } = tempDir('corvid-takeover-'));
    writeConfig(dir, `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nagents:\n  helper: {}\n`);
    runtime = await loadRuntime({ cwd: dir, dotenv: false });
  });

  afterAll(async () => {
    await runtime?.close();
    await llm?.close();
    cleanup?.();
  });

  it('is recorded completed with its answer by the next worker, and the model is not asked again', async () => {
    const store = await runtime.store();
    const runId = 'run_takeover1';
    await store.backgroundRuns.create({ runId, agent: 'helper', input: 'What is the answer?' });
    // The first worker started it and the run completed; the worker died before recording the outcome.
    await store.backgroundRuns.markStarted(runId, 'elsewhere/1', 0);
    const first = await runtime.agent('helper').run('What is the answer?', { store: () => runtime.store(), runId, durable: true });
    expect(first.text).toBe('The answer is 42.');
    expect(llm.requests).toHaveLength(1);

    // Its worker holds no lease (it died): the new worker takes the run over at its start-up scan
    // (the recovery scans follow every 5 s); the wait leaves room for a loaded machine.
    const worker = await runtime.runs.work({ concurrency: 1 });
    try {
      const run = await runtime.runs.wait(runId, { timeoutMs: 15_000 });
      expect(run).toMatchObject({ status: 'completed', attempts: 2, result: { text: 'The answer is 42.', agent: 'helper' } });
    } finally {
      await worker.stop();
    }
    expect(llm.requests).toHaveLength(1);
    const events = [];
    for await (const e of runtime.runs.stream(runId)) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed', result: { text: 'The answer is 42.' } } });
  }, 30_000);
});
