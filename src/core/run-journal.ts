import type { Message } from '../types/message.js';
import type { PendingApproval, ToolCallRecord } from '../types/result.js';
import type { Store } from '../types/storage/store.js';
import type { Usage } from '../types/usage.js';
import type { ModelStepOutput } from './model-step.js';

/** A tool call's recorded outcome: reused on resume instead of running the tool again. */
export interface CompletedCall {
  output: unknown;
  isError: boolean;
}

/** How a run ended without answering (`RunJournal.fail`). */
export interface RunFailure {
  /** Stopped on request (its signal), not failed: the run is `cancelled`. */
  cancelled?: boolean;
  /** What the model had streamed of its last step before the stop: kept in the session, marked interrupted. */
  partialText?: string;
}

/** How a `requireApproval` call stands in a journaled run. */
export type ApprovalVerdict =
  { status: 'approved' } | { status: 'denied'; reason?: string } | { status: 'pending'; approval: PendingApproval };

/** Where a resumed run's loop continues. */
export interface ResumePoint {
  /** Model steps the loop had finished. */
  step: number;
  /** The model response of the step whose tools were running: the loop runs its tools without asking the model again. */
  inFlight?: ModelStepOutput;
}

/**
 * What the agent loop tells a run's journal as the run goes, so it can be stored, resumed and
 * paused for approvals. The loop (`runLoop`) and tool execution call it; `DurableRun` in
 * `src/durable` implements it for session / durable runs. A run without a session or
 * `durable: true` has no journal, and the loop skips every call.
 *
 * Order of calls for one step: `beforeModelCall` → `afterModelResponse` → `toolCompleted` per
 * call (or `approval` first for calls that need one) → `toolsDone`; then either the next step, a
 * `handoff`, `pause`, `complete` or `fail`.
 */
export interface RunJournal {
  /** The run's id (stable across resumes; tools' idempotency keys use it). */
  readonly runId: string;
  /** The run's input text (`run_start.input` of a resumed run). */
  readonly input: string;
  /** The store the run is written to (tools see it as `ctx.store`). */
  readonly store: Store;
  readonly sessionId: string | undefined;
  readonly userId: string | undefined;
  /** The run's usage so far: the loop that owns the journal adds to this object in place (checkpoints read it). */
  readonly usage: Usage;
  /** Where a resumed run continues; `undefined` for a new run. Handed out once: the first loop that starts takes it. */
  takeResumePoint(): ResumePoint | undefined;
  /** Before a model call: the finished step goes to the session, then a checkpoint (by the checkpoint strategy). */
  beforeModelCall(step: number): Promise<void>;
  /** The model answered (`calls`: the tools it asked for, maybe none); `usage` is the step's. */
  afterModelResponse(step: number, assistantMessage: Message, calls: ToolCallRecord[], usage: Usage): Promise<void>;
  /** The outcome recorded for a call of the in-flight step before an interruption (reused instead of running it again). */
  completedCall(toolCallId: string): CompletedCall | undefined;
  /** A tool call finished: resolves once its outcome is stored (only then is it acknowledged). */
  toolCompleted(toolCallId: string, output: unknown, isError: boolean): Promise<void>;
  /** On a resumed run: the answer stored meanwhile for this call's approval, if any. */
  storedAnswer(toolCallId: string): Promise<ApprovalVerdict | undefined>;
  /** Asks for a call's approval: an answered one decides, otherwise it is created and the call waits (`pending`). */
  approval(call: ToolCallRecord, prompt: string): Promise<ApprovalVerdict>;
  /** The step's tool results are in the history: nothing is in flight. */
  toolsDone(): void;
  /** Control passes from agent `from` to `to` (a `transfer_to_*` call). */
  handoff(from: string, to: string, toolCallId: string): Promise<void>;
  /** The run waits for these approvals. */
  pause(pending: PendingApproval[]): Promise<void>;
  /** The run answered. */
  complete(): Promise<void>;
  /** The run failed or was cancelled (never throws: the run's own error is the one reported). */
  fail(end?: RunFailure): Promise<void>;
}
