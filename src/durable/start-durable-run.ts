import { randomBytes } from 'node:crypto';

import type { DurableRunContext } from '../core/core-services.js';
import type { RunOptions } from '../core/run-options.js';
import { findAgent, type Runnable } from '../core/runnable.js';
import { DurableRunError } from '../errors/durable-run-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { DurableDefaults } from '../types/durable-options.js';
import type { Message, RunInput } from '../types/message.js';
import { messageText, userMessage } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import { RunState, toRunState } from '../types/run-state.js';
import type { Store } from '../types/storage/store.js';
import { DurableRun } from './durable-run.js';
import { openRunStore, sessionRefOf } from './open-run-store.js';
import { holdRunLease } from './run-lease.js';

/**
 * Runs `root` as a durable run: with `options.session`, on the session's history (continuing
 * with the session's active agent when it is reachable from `root`), appending as it goes and
 * loading / saving the session state; always checkpointed so `resume` can continue it.
 */
export async function startDurableRun(
  root: Runnable,
  input: RunInput,
  options: RunOptions,
  { stream, defaults }: DurableRunContext,
): Promise<RunResult> {
  const ref = options.session !== undefined ? sessionRefOf(options.session, root.name) : undefined;
  const store = await openRunStore(options.store ?? defaults.store, root.name, ref ? 'a session run' : 'a durable run');
  const state = toRunState(options.state) ?? new RunState();
  const checkpoints = options.checkpoints ?? defaults.checkpoints;
  if (checkpoints?.ttlMs !== undefined) pruneExpired(store);
  const runId = options.runId ?? durableRunId();
  // Held while this process runs it: another server's auto-resume leaves it alone.
  const lease = options.leaseHeld ? undefined : await holdRunLease(store, runId);
  try {
    return await runStarted(root, input, options, stream, { store, state, checkpoints, ref, runId });
  } finally {
    await lease?.release();
  }
}

/**
 * A session with a run waiting for approval takes no new turn: the new turn's messages would come
 * after the paused run's, which could then never resume (its history would be lost).
 * @throws DurableRunError (`conflict`) naming the paused run and how to answer it.
 */
async function refuseWhilePaused(store: Store, sessionId: string): Promise<void> {
  const [paused] = await store.checkpoints.listRuns({ sessionId, status: 'paused', limit: 1 });
  if (!paused) return;
  throw new DurableRunError(
    `Session "${sessionId}" has a run waiting for approval (run "${paused.runId}"): answer its approvals first ` +
      `(corvid approvals list / approve / deny, or POST /api/v1/approvals/{id}), then send the next message`,
    { kind: 'conflict', runId: paused.runId },
  );
}

async function runStarted(
  root: Runnable,
  input: RunInput,
  options: RunOptions,
  stream: boolean,
  s: {
    store: Store;
    state: RunState;
    checkpoints: DurableDefaults['checkpoints'];
    ref: { id: string; userId?: string } | undefined;
    runId: string;
  },
): Promise<RunResult> {
  const { store, state, checkpoints, ref, runId } = s;
  const history: Message[] = [];
  let runner = root;
  let lastSeq = 0;
  let userId: string | undefined;
  if (ref !== undefined) {
    const session = await store.sessions.getOrCreate(
      ref.userId !== undefined ? { id: ref.id, agent: root.name, userId: ref.userId } : { id: ref.id, agent: root.name },
    );
    userId = ref.userId ?? session.userId;
    await refuseWhilePaused(store, ref.id);
    const entries = await store.sessions.entries(ref.id);
    lastSeq = session.lastSeq;
    for (const e of entries) {
      if (e.message !== undefined) history.push(e.message);
      if (e.seq > lastSeq) lastSeq = e.seq;
    }
    if (session.activeAgent !== root.name) runner = findAgent(root, session.activeAgent) ?? root;
    await loadState(store, state, ref.id, userId);
  }
  const d = new DurableRun({
    store,
    runId,
    rootAgent: root.name,
    agent: runner.name,
    input: describe(input),
    sessionId: ref?.id,
    userId,
    sessionLastSeq: lastSeq,
    history,
    baseLength: history.length,
    appended: 0,
    checkpoints,
    state,
  });
  const runOptions: RunOptions = { ...options, state, journal: d };
  // Before anything else (model, instructions): the run and the user's input are stored together.
  await d.start(typeof input === 'string' ? [userMessage(input)] : input);
  let result: RunResult;
  if (runner.kind === 'llm') result = await runner.execute({ history, input, options: runOptions, stream });
  else {
    // Workflow agents: checkpointed at start and end; the session gets the input, then the answer.
    runOptions.journal = undefined;
    try {
      result = await runner.execute({ history, input, options: runOptions, stream });
    } catch (err) {
      await d.fail(RunAbortedError.isInstance(err) ? { cancelled: true } : {});
      throw err;
    }
    await d.complete();
    result.runId = d.runId;
  }
  result.messages = history.slice(d.baseLength);
  if (ref !== undefined) result.sessionId = ref.id;
  return result;
}

/** Session (and user) state from the store, under values the caller passed. */
export async function loadState(store: Store, state: RunState, sessionId: string, userId: string | undefined): Promise<void> {
  for (const e of await store.state.list({ session: sessionId })) if (!state.session.has(e.key)) state.session.set(e.key, e.value);
  if (userId !== undefined) {
    for (const e of await store.state.list({ user: userId })) if (!state.user.has(e.key)) state.user.set(e.key, e.value);
  }
}

function describe(input: RunInput): string {
  if (typeof input === 'string') return input;
  const last = input[input.length - 1];
  return last ? messageText(last) : '';
}

/** A run id unique across processes and machines (`run_` + time + random), since durable runs are looked up by it later. */
export function durableRunId(): string {
  return `run_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

const lastPrune = new WeakMap<Store, number>();
const PRUNE_EVERY_MS = 60_000;

/** Removes expired checkpoints (and runs left without any) in the background, at most once a minute per store. */
export function pruneExpired(store: Store): void {
  const now = Date.now();
  if (now - (lastPrune.get(store) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(store, now);
  store.checkpoints.deleteExpired().catch(() => undefined);
}
