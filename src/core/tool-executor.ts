import { RunAbortedError } from '../errors/run-aborted-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import type { ApprovalHandler } from '../types/durable-options.js';
import type { EventSink } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { ToolCallRecord, ToolResultRecord } from '../types/result.js';
import type { PendingApproval } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import type { Store } from '../types/storage/store.js';
import type { Tool, ToolContext } from '../types/tool.js';
import { runsLive, type ToolCallReplay } from '../types/tool-call-replay.js';
import type { Usage } from '../types/usage.js';
import { linkAbort } from './abort-link.js';
import { approvalPromptWithPreview } from './approval-prompt.js';
import type { RunJournal } from './run-journal.js';
import type { LoopControl } from './run-options.js';
import { isFatalRunError, type RunTree } from './run-tree.js';
import { validateToolInput } from './tool.js';

/** Everything tool execution needs from the run. */
export interface ToolRunScope {
  tools: ReadonlyMap<string, Tool>;
  agent: string;
  path: readonly string[];
  runId: string;
  step: number;
  messages: readonly Message[];
  signal?: AbortSignal;
  concurrency: number;
  defaultTimeoutMs?: number;
  /** `return`: failures go back to the model as error results; `throw`: the run fails. */
  errorMode: 'return' | 'throw';
  sink?: EventSink;
  reportUsage?: (usage: Usage, byAgent?: Record<string, Usage>) => void;
  state: RunState;
  tree?: RunTree;
  loop?: LoopControl;
  /** Durable runs: records outcomes, reuses recorded ones, keeps approvals. */
  journal?: RunJournal;
  /** The store tools see in their context. */
  store?: Store;
  /** Decides approvals in process. */
  onApproval?: ApprovalHandler;
  /** Calls of the current step waiting for approval (the step pauses). */
  paused?: PendingApproval[];
  /** A cassette's tool results: recorded ones replace running the tool; outcomes of tools that ran are recorded. */
  replay?: ToolCallReplay;
}

/** A call whose arguments could not be parsed: the message goes back to the model. */
export interface PreparedCall extends ToolCallRecord {
  parseError?: string;
}

/**
 * Runs the step's tool calls, concurrently up to `scope.concurrency`, and returns their results
 * in call order. Each `tool_result` event is emitted as its call finishes.
 */
export async function executeToolCalls(calls: PreparedCall[], scope: ToolRunScope): Promise<ToolResultRecord[]> {
  if (calls.length === 1) return [await runOne(calls[0], scope)];
  const results = new Array<ToolResultRecord>(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const i = next++;
      results[i] = await runOne(calls[i], scope);
    }
  };
  const workers = Math.max(1, Math.min(scope.concurrency, calls.length));
  const running: Promise<void>[] = [];
  for (let i = 0; i < workers; i++) running.push(worker());
  await Promise.all(running);
  return results;
}

/** How a call ended, before it is stored and reported. */
type CallOutcome =
  | { kind: 'done'; output: unknown; isError: boolean; cause?: unknown }
  /** The user denied it: an error result for the model, never a thrown `ToolExecutionError`. */
  | { kind: 'denied'; output: string }
  /** A resumed run's recorded outcome (already stored). */
  | { kind: 'reused'; output: unknown; isError: boolean }
  /** A cassette's recorded outcome: the tool did not run. */
  | { kind: 'replayed'; output: unknown; isError: boolean }
  /** Waits for a human's approval: the step pauses. */
  | { kind: 'pending'; approval: PendingApproval };

async function runOne(call: PreparedCall, scope: ToolRunScope): Promise<ToolResultRecord> {
  const started = performance.now();
  if (scope.signal?.aborted) throw new RunAbortedError();
  const o = await outcomeOf(call, scope);
  if (o.kind === 'pending') {
    (scope.paused ??= []).push(o.approval);
    return { toolCallId: call.toolCallId, toolName: call.toolName, output: undefined, isError: false, durationMs: 0 };
  }
  const isError = o.kind === 'denied' || o.isError;
  // "Finished" means "stored": the outcome is committed before anything acknowledges it (the
  // tool_result event below, the next model call after this step).
  if (scope.journal !== undefined && o.kind !== 'reused') await scope.journal.toolCompleted(call.toolCallId, o.output, isError);
  if (scope.replay !== undefined && (o.kind === 'done' || o.kind === 'denied') && scope.tools.has(call.toolName))
    scope.replay.record(call, scope.path, { output: o.output, isError });
  if (isError && o.kind !== 'denied' && scope.errorMode === 'throw') {
    const cause = o.kind === 'done' ? o.cause : undefined;
    if (ToolExecutionError.isInstance(cause)) throw cause;
    throw new ToolExecutionError(String(o.output), { toolName: call.toolName, toolCallId: call.toolCallId, cause });
  }
  const result: ToolResultRecord = {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: o.output,
    isError,
    durationMs: performance.now() - started,
  };
  if (scope.sink) {
    scope.sink({
      type: 'tool_result',
      runId: scope.runId,
      agent: scope.agent,
      path: scope.path,
      step: scope.step,
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      output: result.output,
      isError: result.isError,
      durationMs: result.durationMs,
    });
  }
  return result;
}

/** Checks and runs one call: bad arguments and unknown tools go back to the model; approvals are asked first. */
async function outcomeOf(call: PreparedCall, scope: ToolRunScope): Promise<CallOutcome> {
  if (call.parseError) return { kind: 'done', output: call.parseError, isError: true };
  const t = scope.tools.get(call.toolName);
  if (!t)
    return {
      kind: 'done',
      output: `Unknown tool "${call.toolName}". Available tools: ${[...scope.tools.keys()].join(', ') || '(none)'}`,
      isError: true,
    };
  const checked = await validateToolInput(t, call.input);
  // Resumed run: the call finished before the interruption; its outcome is reused.
  const done = scope.journal?.completedCall(call.toolCallId);
  if (done !== undefined) return { kind: 'reused', output: done.output, isError: done.isError };
  if (!checked.ok) return { kind: 'done', output: `Invalid arguments for tool "${t.name}": ${checked.message}`, isError: true };
  // A cassette's recorded outcome stands for the tool (approvals included: they were asked when it was recorded).
  const replayed = scope.replay !== undefined && !runsLive(t) ? scope.replay.replay(call, scope.path) : undefined;
  if (replayed !== undefined) return { kind: 'replayed', output: replayed.output, isError: replayed.isError };
  if (t.requireApproval !== undefined && t.requireApproval !== false) {
    const verdict = await decideApproval(t, checked.value, call, scope);
    if (verdict !== 'approved') {
      if (verdict.status === 'pending') return { kind: 'pending', approval: verdict.approval };
      return { kind: 'denied', output: `The user denied this call of "${t.name}"${verdict.reason ? `: ${verdict.reason}` : '.'}` };
    }
  }
  try {
    return { kind: 'done', output: await invoke(t, checked.value, call, scope), isError: false };
  } catch (err) {
    if (scope.signal?.aborted) throw new RunAbortedError(undefined, { cause: err });
    // Limits and template errors stop the run instead of going back to the model.
    if (isFatalRunError(err)) throw err;
    return {
      kind: 'done',
      output: `Tool "${t.name}" failed: ${err instanceof Error ? err.message : String(err)}`,
      isError: true,
      cause: err,
    };
  }
}

async function invoke(t: Tool, input: unknown, call: ToolCallRecord, scope: ToolRunScope): Promise<unknown> {
  const timeoutMs = t.timeoutMs ?? scope.defaultTimeoutMs;
  const needsOwnSignal = timeoutMs !== undefined && timeoutMs > 0;
  const controller = needsOwnSignal ? new AbortController() : undefined;
  const signal = controller ? controller.signal : (scope.signal ?? NEVER);
  const context: ToolContext = {
    signal,
    agent: scope.agent,
    path: scope.path,
    runId: scope.runId,
    toolCallId: call.toolCallId,
    // Stable across a crash and resume: the durable run's id (a handoff target's loop has its own runId).
    idempotencyKey: `${scope.journal?.runId ?? scope.runId}:${call.toolCallId}`,
    messages: scope.messages,
    emit: scope.sink,
    state: scope.state,
  };
  if (scope.store !== undefined) context.store = scope.store;
  const d = scope.journal;
  if (d !== undefined) {
    if (d.sessionId !== undefined) context.sessionId = d.sessionId;
    if (d.userId !== undefined) context.userId = d.userId;
  }
  if (scope.reportUsage) (context as ToolContextInternal).reportUsage = scope.reportUsage;
  if (scope.tree) (context as ToolContextInternal).tree = scope.tree;
  if (scope.loop) (context as ToolContextInternal).loop = scope.loop;
  if (!controller) return scope.signal ? await untilAborted(t.execute(input, context), scope.signal) : await t.execute(input, context);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unlink = linkAbort(scope.signal, controller);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error('tool timeout'));
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const running = Promise.race([Promise.resolve(t.execute(input, context)), timeout]);
    return scope.signal ? await untilAborted(running, scope.signal) : await running;
  } finally {
    clearTimeout(timer);
    unlink();
  }
}

/** How long a cancelled tool may take to stop on its own before the run stops waiting for it. */
const ABANDON_AFTER_MS = 50;

/**
 * `work`, or a `RunAbortedError` shortly after the run is cancelled: a tool that ignores its
 * signal does not hold the run. It is told to stop through `ctx.signal` and gets
 * `ABANDON_AFTER_MS` to do so (a tool that stops, or a nested run that fails, ends as it
 * would); after that its result is dropped.
 */
function untilAborted<T>(work: T | PromiseLike<T>, signal: AbortSignal): Promise<T> {
  const running = Promise.resolve(work);
  let unlink = NOOP;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    unlink = linkAbort(signal, {
      abort: (reason?: unknown) => {
        timer = setTimeout(() => reject(new RunAbortedError(undefined, { cause: reason })), ABANDON_AFTER_MS);
      },
    });
  });
  // An abandoned tool's later failure is nobody's to handle.
  running.catch(NOOP);
  return Promise.race([running, abandoned]).finally(() => {
    clearTimeout(timer);
    unlink();
  });
}

const NOOP = (): void => {};

const NEVER = new AbortController().signal;

type Verdict = 'approved' | { status: 'denied'; reason?: string } | { status: 'pending'; approval: PendingApproval };

/** Asks for a call's approval: in process (`onApproval`), else through the durable run's store; with neither it fails. */
async function decideApproval(t: Tool, input: unknown, call: PreparedCall, scope: ToolRunScope): Promise<Verdict> {
  const prompt = await approvalPromptWithPreview(t, input);
  if (prompt === undefined) return 'approved';
  if (scope.journal !== undefined && scope.onApproval !== undefined) {
    // A resumed run whose approval was answered while it was paused: that answer stands.
    const stored = await scope.journal.storedAnswer(call.toolCallId);
    if (stored !== undefined) return stored.status === 'approved' ? 'approved' : stored;
  }
  if (scope.onApproval !== undefined) {
    const decision = await scope.onApproval({
      runId: scope.runId,
      agent: scope.agent,
      toolCallId: call.toolCallId,
      toolName: t.name,
      input,
      prompt,
    });
    if (decision?.approved === true) return 'approved';
    return decision?.reason !== undefined ? { status: 'denied', reason: decision.reason } : { status: 'denied' };
  }
  if (scope.journal !== undefined) {
    const v = await scope.journal.approval({ toolCallId: call.toolCallId, toolName: t.name, input }, prompt);
    return v.status === 'approved' ? 'approved' : v;
  }
  throw new ToolExecutionError(
    `Tool "${t.name}" needs a human's approval, but this run cannot ask for one: run it with a session (or a store and durable: true) so it pauses until someone answers, or pass onApproval`,
    { toolName: t.name, toolCallId: call.toolCallId },
  );
}

/** Internal hooks on the tool context (used by agent tools and `exit_loop`). */
export interface ToolContextInternal extends ToolContext {
  reportUsage?: (usage: Usage, byAgent?: Record<string, Usage>) => void;
  tree?: RunTree;
  loop?: LoopControl;
}
