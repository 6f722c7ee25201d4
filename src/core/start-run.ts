import type { DurableDefaults } from '../types/durable-options.js';
import type { RunInput } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import { durableRunner } from './core-services.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';
import type { Runnable } from './runnable.js';
import { streamRun } from './stream-run.js';

/** How `startRun` runs an agent. */
export interface StartRunOptions {
  options?: RunOptions;
  /** Stream text deltas as events (`startRunStream` sets it). */
  stream?: boolean;
  /** The agent's store and checkpoint settings, for session / durable runs. */
  defaults?: DurableDefaults;
}

/** Whether these options make a run durable (stored, resumable). */
export function isDurableRun(options: RunOptions | undefined): boolean {
  return options !== undefined && (options.session !== undefined || options.durable === true);
}

/**
 * THE entry point of a top-level run, for every kind of agent: with `session` or `durable: true`
 * the installed durable runner runs it (stored, resumable), otherwise it runs in memory on a
 * fresh conversation. `agent.run()`, workflow agents and the HTTP chat service all start runs here.
 */
export function startRun(agent: Runnable, input: RunInput, how: StartRunOptions = {}): Promise<RunResult> {
  const stream = how.stream ?? false;
  if (isDurableRun(how.options)) {
    try {
      return durableRunner().start(agent, input, how.options!, { stream, defaults: how.defaults ?? {} });
    } catch (err) {
      return Promise.reject(err);
    }
  }
  return agent.execute({ history: [], input, options: how.options, stream });
}

/** `startRun`, streaming the events of the run tree (text deltas included). */
export function startRunStream(agent: Runnable, input: RunInput, how: Omit<StartRunOptions, 'stream'> = {}): RunStream {
  if (!isDurableRun(how.options)) return streamRun(agent, [], input, how.options);
  return streamRun(agent, [], input, how.options, (options) => startRun(agent, input, { options, stream: true, defaults: how.defaults }));
}

/** Continues a durable run from its last checkpoint (see `Agent.resume`). */
export function resumeRun(
  agent: Runnable,
  runId: string,
  how: { options?: ResumeOptions; stream?: boolean; defaults?: DurableDefaults } = {},
): Promise<RunResult> {
  try {
    return durableRunner().resume(agent, runId, how.options, { stream: how.stream ?? false, defaults: how.defaults ?? {} });
  } catch (err) {
    return Promise.reject(err);
  }
}

/** `resumeRun`, streaming the events (starting with `run_start` with `resumed: true`). */
export function resumeRunStream(
  agent: Runnable,
  runId: string,
  how: { options?: ResumeOptions; defaults?: DurableDefaults } = {},
): RunStream {
  return streamRun(agent, [], [], how.options, (options) => resumeRun(agent, runId, { options, stream: true, defaults: how.defaults }));
}
