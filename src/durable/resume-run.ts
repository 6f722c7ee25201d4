import type { DurableRunContext } from '../core/core-services.js';
import type { ResumeOptions, RunOptions } from '../core/run-options.js';
import { findAgent, type Runnable } from '../core/runnable.js';
import { DurableRunError } from '../errors/durable-run-error.js';
import type { AgentEvent } from '../types/events.js';
import { type Message, messageText } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import { RunState, toRunState } from '../types/run-state.js';
import type { Store } from '../types/storage/store.js';
import { DurableRun } from './durable-run.js';
import { type DurableDefaults, openRunStore } from './open-run-store.js';
import { holdRunLease } from './run-lease.js';
import { type InFlightStep, parseRunState, type RunStateV1 } from './run-state-v1.js';
import { loadState } from './start-durable-run.js';

export type { ResumeOptions };

/**
 * Continues a durable run from its latest checkpoint, with the same run id: the session's
 * messages and the checkpoint's in-flight step are restored, tool calls that had finished are not
 * run again, approvals answered meanwhile take effect. `root` is the agent the run was started on.
 * @throws DurableRunError `not_found` for an unknown (or expired) run, `validation_failed` for a
 * completed run, another agent's run or a newer checkpoint format, `storage_conflict` when another
 * run wrote to the session since or another process is running this one now (it holds the run's
 * lease, see `holdRunLease`).
 */
export async function resumeDurableRun(
  root: Runnable,
  runId: string,
  options: ResumeOptions | undefined,
  { stream, defaults }: DurableRunContext,
): Promise<RunResult> {
  if (typeof runId !== 'string' || runId === '')
    throw new DurableRunError(`Agent "${root.name}": resume needs a run id (got ${JSON.stringify(runId)})`, { kind: 'invalid' });
  const store = await openRunStore(options?.store ?? defaults.store, root.name, 'resuming a run');
  // Only one process continues a run at a time (two servers resuming interrupted runs at startup).
  const lease = options?.leaseHeld ? undefined : await holdRunLease(store, runId);
  try {
    return await resumeHeld({ root, runId, options, stream, defaults, store });
  } finally {
    await lease?.release();
  }
}

interface ResumeRequest {
  root: Runnable;
  runId: string;
  options: ResumeOptions | undefined;
  stream: boolean;
  defaults: DurableDefaults;
  store: Store;
}

async function resumeHeld({ root, runId, options, stream, defaults, store }: ResumeRequest): Promise<RunResult> {
  const cp = await store.checkpoints.latest(runId);
  if (cp === undefined) {
    const run = await store.checkpoints.getRun(runId);
    throw new DurableRunError(
      run
        ? `Run "${runId}" cannot be resumed: its checkpoints have expired`
        : `Unknown run "${runId}": no checkpoint of it in ${store.info.location} (corvid runs list shows the runs)`,
      { kind: 'not_found', runId },
    );
  }
  if (cp.status === 'completed')
    throw new DurableRunError(`Run "${runId}" has already completed; there is nothing to resume`, { kind: 'invalid', runId });
  const s = parseRunState(cp.state, runId);
  if (s.rootAgent !== root.name) {
    throw new DurableRunError(`Run "${runId}" belongs to agent "${s.rootAgent}", not "${root.name}": resume it on that agent`, {
      kind: 'invalid',
      runId,
    });
  }
  const restored =
    s.sessionLastSeq !== undefined && cp.sessionId !== undefined ? await restoreSession(store, cp.sessionId, runId, s) : restoreLocal(s);
  const runner = restored.agent === root.name ? root : findAgent(root, restored.agent);
  if (runner === undefined)
    throw new DurableRunError(`Run "${runId}" was running agent "${restored.agent}", which "${root.name}" does not reach any more`, {
      kind: 'invalid',
      runId,
    });
  if (runner.kind !== 'llm')
    throw new DurableRunError(`Run "${runId}" of workflow agent "${runner.name}" cannot be resumed; run it again`, {
      kind: 'invalid',
      runId,
    });

  const state = new RunState({ session: s.state ?? {} });
  if (cp.sessionId !== undefined) await loadState(store, state, cp.sessionId, s.userId);
  const d = new DurableRun({
    store,
    runId,
    rootAgent: s.rootAgent,
    agent: runner.name,
    input: s.input,
    sessionId: cp.sessionId,
    userId: s.userId,
    sessionLastSeq: restored.sessionLastSeq,
    history: restored.history,
    baseLength: restored.baseLength,
    appended: restored.appended,
    checkpoints: options?.checkpoints ?? defaults.checkpoints,
    state,
    startedAt: s.startedAt,
    resume: { step: restored.step, usage: s.usage, inFlight: restored.inFlight },
    timeline: s.timeline,
  });
  const runOptions: RunOptions = { ...options, state: toRunState(state), journal: d };
  if (restored.answered !== undefined) return finishAnswered(d, runner, restored.answered, runOptions);
  const result = await runner.execute({ history: restored.history, input: [], options: runOptions, stream });
  result.messages = restored.history.slice(restored.baseLength);
  if (cp.sessionId !== undefined) result.sessionId = cp.sessionId;
  return result;
}

interface Restored {
  agent: string;
  history: Message[];
  baseLength: number;
  appended: number;
  sessionLastSeq: number;
  /** The loop's step to continue from. */
  step: number;
  inFlight?: InFlightStep;
  /** The run had answered (its final message is in the conversation) but not completed its checkpoint. */
  answered?: string;
}

/**
 * The session is the log of what the run acknowledged: its messages after the checkpoint's seq
 * (written before the interruption) count as done; the checkpoint's pending ones not there are
 * appended on the next flush.
 */
async function restoreSession(store: Store, sessionId: string, runId: string, s: RunStateV1): Promise<Restored> {
  const entries = await store.sessions.entries(sessionId);
  const history: Message[] = [];
  let baseLength = -1;
  let appended = 0;
  let lastSeq = s.sessionLastSeq ?? 0;
  let agent = s.agent;
  let after = 0;
  let steps = 0;
  for (const e of entries) {
    if (e.seq > lastSeq) lastSeq = e.seq;
    const mine = e.runId === runId;
    if (e.seq > (s.sessionLastSeq ?? 0) && !mine && e.type === 'message') {
      throw new DurableRunError(
        `Run "${runId}" cannot be resumed: session "${sessionId}" has newer messages from another run (seq ${e.seq}); it would lose them`,
        { kind: 'conflict', runId },
      );
    }
    if (e.type === 'handoff' && mine && e.seq > (s.sessionLastSeq ?? 0)) {
      agent = String((e.data as { to?: unknown })?.to ?? agent);
      steps = 0;
    }
    if (e.message === undefined) continue;
    if (mine && baseLength < 0) baseLength = history.length;
    history.push(e.message);
    if (mine) appended++;
    if (mine && e.seq > (s.sessionLastSeq ?? 0)) {
      after++;
      if (e.message.role === 'assistant') steps++;
    }
  }
  if (baseLength < 0) baseLength = history.length;
  const pending = s.pending ?? [];
  for (let i = after; i < pending.length; i++) history.push(pending[i]);
  // Messages beyond the checkpoint's pending ones are whole steps finished after it.
  const extra = after > pending.length;
  let inFlight = extra ? undefined : s.inFlight;
  const base = s.inFlight?.step ?? s.step;
  let step = Math.max(0, base - 1) + (extra ? steps : 0);
  if (agent !== s.agent) {
    inFlight = undefined;
    step = steps;
  }
  return {
    agent,
    history,
    baseLength,
    appended,
    sessionLastSeq: lastSeq,
    step,
    inFlight,
    answered: answeredText(history, baseLength, inFlight),
  };
}

function restoreLocal(s: RunStateV1): Restored {
  const history = (s.messages ?? []).slice();
  const baseLength = s.baseLength ?? 0;
  const step = Math.max(0, (s.inFlight?.step ?? s.step) - 1);
  return {
    agent: s.agent,
    history,
    baseLength,
    appended: 0,
    sessionLastSeq: 0,
    step,
    inFlight: s.inFlight,
    answered: answeredText(history, baseLength, s.inFlight),
  };
}

/** The final answer when the run's last message is an assistant message without tool calls. */
function answeredText(history: Message[], baseLength: number, inFlight: InFlightStep | undefined): string | undefined {
  if (inFlight !== undefined || history.length <= baseLength) return undefined;
  const last = history[history.length - 1];
  if (last.role !== 'assistant' || last.content.some((c) => c.type === 'tool-call')) return undefined;
  return messageText(last);
}

/** Completes a run whose answer was already written: no model call, just the closing events. */
async function finishAnswered(d: DurableRun, runner: Runnable, text: string, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const sink = options.onEvent;
  const base = { runId: d.runId, agent: runner.name, path: [runner.name] as readonly string[] };
  const emit = (e: AgentEvent) => sink?.(e);
  emit({ ...base, type: 'run_start', input: d.input, resumed: true });
  await d.complete();
  emit({ ...base, type: 'answer', text });
  emit({ ...base, type: 'run_end', status: 'completed', steps: 0, usage: d.usage, durationMs: performance.now() - started });
  const result: RunResult = {
    runId: d.runId,
    agent: runner.name,
    text,
    steps: [],
    usage: d.usage,
    usageByAgent: { [runner.name]: d.usage },
    messages: d.history.slice(d.baseLength),
    finishReason: 'stop',
    durationMs: performance.now() - started,
    status: 'completed',
  };
  if (d.sessionId !== undefined) result.sessionId = d.sessionId;
  return result;
}
