import type { Agent } from '../core/agent.js';
import type { Runnable } from '../core/runnable.js';
import { DurableRunError } from '../errors/durable-run-error.js';
import type { RunRecord } from '../types/storage/runs.js';
import type { Store } from '../types/storage/store.js';

/** What the run helpers need of a runtime (`loadRuntime()`'s `Runtime` fits). */
export interface RunsRuntime {
  store(): Promise<Store>;
  agent<T extends Runnable = Agent>(name?: string): T;
}

/**
 * The agent of the runtime a stored run belongs to, to call `resume()` / `resumeStream()` on.
 * @throws DurableRunError `not_found` for an unknown run id; `ConfigError` when the config no
 * longer has the agent.
 */
export async function agentForRun(runtime: RunsRuntime, runId: string): Promise<{ agent: Agent; run: RunRecord }> {
  const store = await runtime.store();
  const run = await store.checkpoints.getRun(runId);
  if (run === undefined) {
    throw new DurableRunError(`Unknown run "${runId}" in ${store.info.location} (corvid runs list shows the runs)`, {
      kind: 'not_found',
      runId,
    });
  }
  const agent = runtime.agent<Runnable>(run.agent);
  if (agent.kind !== 'llm' || typeof (agent as Agent).resume !== 'function') {
    throw new DurableRunError(`Run "${runId}" of ${agent.kind} agent "${agent.name}" cannot be resumed; run it again`, {
      kind: 'invalid',
      runId,
    });
  }
  return { agent: agent as Agent, run };
}

/** Interrupted runs (status `running`) of a session, oldest first: what `resume: auto` continues at start-up. */
export async function interruptedRuns(runtime: RunsRuntime, sessionId: string): Promise<RunRecord[]> {
  const store = await runtime.store();
  const runs = await store.checkpoints.listRuns({ sessionId, status: 'running' });
  return runs.reverse();
}
