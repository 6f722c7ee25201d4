/**
 * A background run's worker holds the run's lease before it marks the run started and until the
 * run is recorded: another worker's recovery that comes for the run at any moment in between
 * leaves it alone (the model is asked once), and a `running` run whose worker is gone is taken
 * over at once, however recently it was started. SQLite store, the fake LLM server as model.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { executeBackgroundRun } from '../../src/durable/execute-background-run.js';
import { holdRunLease, runLeaseName } from '../../src/durable/run-lease.js';
import type { RunsRuntime } from '../../src/durable/runtime-runs.js';
import { loadRuntime, type Runtime } from '../../src/runtime/load-runtime.js';
import type { Store } from '../../src/types/storage/store.js';
import { fakeModel, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

describe('background runs take their lease before they are marked started', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  let runtime: Runtime;
  let store: Store;

  beforeAll(async () => {
    llm = await startFakeLlmServer(() => ({ text: 'Done.' }));
    ({ dir, cleanup } = tempDir('corvid-lease-first-'));
    writeConfig(dir, `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nagents:\n  helper: {}\n`);
    runtime = await loadRuntime({ cwd: dir, dotenv: false });
    store = await runtime.store();
  });

  beforeEach(() => {
    llm.requests.length = 0;
  });

  afterAll(async () => {
    await runtime?.close();
    await llm?.close();
    cleanup?.();
  });

  it('a second worker coming for the run right after it was marked started leaves it alone', async () => {
    const runId = 'run_leasefirst1';
    await store.backgroundRuns.create({ runId, agent: 'helper', input: 'Do it.' });
    let intruder: Promise<unknown> | undefined;
    // The moment the first worker has marked the run started, the second worker's recovery tries it.
    const racing = storeHook(runtime, () => {
      intruder ??= executeBackgroundRun({ runtime, worker: 'second/1' }, runId).then(
        () => 'ran',
        (err: Error) => err.name,
      );
      return intruder;
    });
    await executeBackgroundRun({ runtime: racing, worker: 'first/1' }, runId);

    expect(await intruder).toBe('RunHeldElsewhereError');
    expect(await store.backgroundRuns.get(runId)).toMatchObject({ status: 'completed', attempts: 1, worker: 'first/1' });
    expect(llm.requests).toHaveLength(1);
    // Given back once the run is recorded.
    expect(await store.leases.get(runLeaseName(runId))).toBeUndefined();
  });

  it('a running run whose worker holds its lease is not taken over, and is at once when the lease is given back', async () => {
    const runId = 'run_leasefirst2';
    await store.backgroundRuns.create({ runId, agent: 'helper', input: 'Do it.' });
    const lease = await holdRunLease(store, runId);
    await store.backgroundRuns.markStarted(runId, 'alive/1', 0);

    await expect(executeBackgroundRun({ runtime, worker: 'second/1' }, runId)).rejects.toMatchObject({ name: 'RunHeldElsewhereError' });
    expect(await store.backgroundRuns.get(runId)).toMatchObject({ status: 'running', attempts: 1, worker: 'alive/1' });
    expect(llm.requests).toHaveLength(0);

    await lease.release();
    await executeBackgroundRun({ runtime, worker: 'second/1' }, runId);
    expect(await store.backgroundRuns.get(runId)).toMatchObject({ status: 'completed', attempts: 2, worker: 'second/1' });
  });

  it("a queued run whose lease is given back a moment later (its pause answered at once) runs without the queue's retry", async () => {
    const runId = 'run_leasefirst4';
    await store.backgroundRuns.create({ runId, agent: 'helper', input: 'Do it.' });
    // The worker before still holds the lease: it is giving it back after recording the pause.
    const before = await holdRunLease(store, runId);
    let refused = 0;
    const giving = leaseHook(runtime, async (taken) => {
      if (taken) return;
      refused++;
      await before.release();
    });
    await executeBackgroundRun({ runtime: giving, worker: 'second/1' }, runId);
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(await store.backgroundRuns.get(runId)).toMatchObject({ status: 'completed', attempts: 1, worker: 'second/1' });
  });

  it('a run just marked started whose worker died is taken over at once', async () => {
    const runId = 'run_leasefirst3';
    await store.backgroundRuns.create({ runId, agent: 'helper', input: 'Do it.' });
    // The worker took the lease and marked the run started a moment ago, then was killed.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    expect(await store.leases.acquire(runLeaseName(runId), `${hostname()}/${gone}/dead0000/1`, 30_000)).toBe(true);
    await store.backgroundRuns.markStarted(runId, `${hostname()}/${gone}`, 0);

    await executeBackgroundRun({ runtime, worker: 'second/1' }, runId);
    expect(await store.backgroundRuns.get(runId)).toMatchObject({ status: 'completed', attempts: 2, result: { text: 'Done.' } });
    expect(llm.requests).toHaveLength(1);
  });
});

/** The runtime, with `onStarted` awaited right after each `backgroundRuns.markStarted` of its store. */
function storeHook(runtime: Runtime, onStarted: () => Promise<unknown>): RunsRuntime {
  const wrap = (store: Store): Store =>
    new Proxy(store, {
      get: (target, key) => (key === 'backgroundRuns' ? hooked(target.backgroundRuns) : Reflect.get(target, key)),
    });
  const hooked = (runs: Store['backgroundRuns']): Store['backgroundRuns'] =>
    new Proxy(runs, {
      get: (target, key) => {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        if (key !== 'markStarted') return value.bind(target);
        return async (...args: Parameters<Store['backgroundRuns']['markStarted']>) => {
          const started = await target.markStarted(...args);
          await onStarted();
          return started;
        };
      },
    });
  return { agent: (name) => runtime.agent(name), store: async () => wrap(await runtime.store()) };
}

/** The runtime, with `onAcquire(taken)` awaited after each `leases.acquire` of its store. */
function leaseHook(runtime: Runtime, onAcquire: (taken: boolean) => Promise<void>): RunsRuntime {
  const hooked = (leases: Store['leases']): Store['leases'] =>
    new Proxy(leases, {
      get: (target, key) => {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        if (key !== 'acquire') return value.bind(target);
        return async (...args: Parameters<Store['leases']['acquire']>) => {
          const taken = await target.acquire(...args);
          await onAcquire(taken);
          return taken;
        };
      },
    });
  const wrap = (store: Store): Store =>
    new Proxy(store, { get: (target, key) => (key === 'leases' ? hooked(target.leases) : Reflect.get(target, key)) });
  return { agent: (name) => runtime.agent(name), store: async () => wrap(await runtime.store()) };
}
