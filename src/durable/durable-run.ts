import type { ApprovalVerdict, ResumePoint, RunFailure, RunJournal } from '../core/run-journal.js';
import type { CheckpointOptions } from '../types/durable-options.js';
import type { Message } from '../types/message.js';
import type { PendingApproval, ToolCallRecord } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import type { CheckpointAppend, CheckpointInput, RunStatus } from '../types/storage/runs.js';
import type { SessionEntryInput } from '../types/storage/sessions.js';
import type { Store } from '../types/storage/store.js';
import { emptyUsage, type Usage } from '../types/usage.js';
import type { CompletedCall, InFlightStep, RunStateV1 } from './run-state-v1.js';
import { RunTimeline, type TimelineStep } from './run-timeline.js';
import { stepFromInFlight } from './step-from-in-flight.js';

/** Where in the loop the strategy decides on a checkpoint (tool results are always checkpointed). */
export type CheckpointPoint = 'model' | 'response';

export type { ApprovalVerdict };

/** What `new DurableRun()` takes. */
export interface DurableRunInit {
  store: Store;
  runId: string;
  rootAgent: string;
  agent: string;
  input: string;
  sessionId?: string;
  userId?: string;
  /** The session's last seq when the run starts (or resumes). */
  sessionLastSeq: number;
  /** The conversation: history, then the run's messages (shared with the loop, which appends to it). */
  history: Message[];
  /** Messages of `history` that came before the run. */
  baseLength: number;
  /** The run's messages already in the session. */
  appended: number;
  checkpoints?: CheckpointOptions;
  state: RunState;
  startedAt?: string;
  /** Resuming: the loop's step, usage so far and the step whose tools were running. */
  resume?: { step: number; usage: Usage; inFlight?: InFlightStep };
  /** Resuming: the steps recorded so far. */
  timeline?: readonly TimelineStep[];
}

/**
 * The durable side of one top-level run: appends its messages to the session as steps finish
 * (`expectedLastSeq`, so a resumed run is the session's only writer), writes checkpoints by the
 * configured strategy, records tool outcomes so a resumed run does not repeat them, and keeps
 * approvals. The `RunJournal` of session / durable runs (see its docs for the order of calls).
 */
export class DurableRun implements RunJournal {
  readonly store: Store;
  readonly runId: string;
  readonly rootAgent: string;
  /** The agent whose loop runs now. */
  agent: string;
  readonly input: string;
  readonly sessionId: string | undefined;
  readonly userId: string | undefined;
  readonly history: Message[];
  readonly baseLength: number;
  readonly state: RunState;
  readonly startedAt: string;
  /** Step of the running loop (kept current by the loop). */
  step = 0;
  /** Usage so far (the running loop's own object). */
  usage: Usage;
  inFlight: InFlightStep | undefined;
  /** Set while resuming, consumed by the first loop that starts (`takeResumePoint`). */
  private resumeFrom: { step: number; usage: Usage; inFlight?: InFlightStep } | undefined;
  /** Whether this run continues a checkpoint (answers to its approvals may be stored already). */
  readonly wasResumed: boolean;
  /** Approvals the run waits for (filled when a step pauses). */
  readonly pendingApprovals: PendingApproval[] = [];
  private sessionLastSeq: number;
  private appended: number;
  private readonly strategy: 'event' | 'interval' | 'hybrid';
  private readonly intervalMs: number;
  private readonly ttlMs: number | undefined;
  private lastSave = Number.NEGATIVE_INFINITY;
  private inFlightSaved = false;
  private writes: Promise<unknown> = Promise.resolve();
  /** A `saveLatest()` checkpoint waiting for its turn to be written. */
  private queued: Promise<void> | undefined;
  private readonly usageOf = new WeakMap<Message, Usage>();
  private readonly timeline: RunTimeline;

  constructor(init: DurableRunInit) {
    this.store = init.store;
    this.runId = init.runId;
    this.rootAgent = init.rootAgent;
    this.agent = init.agent;
    this.input = init.input;
    this.sessionId = init.sessionId;
    this.userId = init.userId;
    this.sessionLastSeq = init.sessionLastSeq;
    this.history = init.history;
    this.baseLength = init.baseLength;
    this.appended = init.appended;
    this.state = init.state;
    this.startedAt = init.startedAt ?? new Date().toISOString();
    this.strategy = init.checkpoints?.strategy ?? 'event';
    this.intervalMs = init.checkpoints?.intervalMs ?? 5000;
    this.ttlMs = init.checkpoints?.ttlMs;
    this.resumeFrom = init.resume;
    this.wasResumed = init.resume !== undefined;
    this.usage = init.resume ? { ...init.resume.usage } : emptyUsage();
    this.inFlight = init.resume?.inFlight;
    this.timeline = new RunTimeline(init.timeline);
  }

  takeResumePoint(): ResumePoint | undefined {
    const r = this.resumeFrom;
    if (r === undefined) return undefined;
    this.resumeFrom = undefined;
    return r.inFlight !== undefined ? { step: r.step, inFlight: stepFromInFlight(r.inFlight) } : { step: r.step };
  }

  /**
   * The run's start: its first checkpoint and its input (`input`, the messages the loop is about
   * to add to the history) in the session, in one transaction — from then on the run is listed and
   * resumable, and the session has the user's message; before it, neither exists.
   */
  async start(input: readonly Message[]): Promise<void> {
    const id = this.sessionId;
    if (id === undefined) return this.save('running', input);
    const expectedLastSeq = this.sessionLastSeq;
    // The checkpoint describes the state after the append: the input is in the session, not pending.
    this.appended += input.length;
    this.sessionLastSeq += input.length;
    const entries = input.map((message): SessionEntryInput => ({ message, agent: this.agent, runId: this.runId }));
    return this.save('running', [], { entries, expectedLastSeq });
  }

  /** Before a model call: the finished step goes to the session, then a checkpoint (by strategy). */
  async beforeModelCall(step: number): Promise<void> {
    this.step = step;
    this.inFlight = undefined;
    this.inFlightSaved = false;
    this.timeline.stepStarted(step, this.agent);
    await this.flush();
    if (this.due('model')) await this.save('running');
  }

  /**
   * The model answered: its usage is kept for the session entry of its message; tools it asked
   * for are in flight from now on (a resumed step's calls are in flight already).
   */
  async afterModelResponse(step: number, assistantMessage: Message, calls: ToolCallRecord[], usage: Usage): Promise<void> {
    this.usageOf.set(assistantMessage, usage);
    this.timeline.responded(usage, calls);
    if (calls.length === 0 || this.inFlight !== undefined) return;
    this.step = step;
    this.inFlight = {
      step,
      assistantMessage,
      calls: calls.map((c) => ({ toolCallId: c.toolCallId, toolName: c.toolName, input: c.input })),
      completed: {},
    };
    this.inFlightSaved = false;
    if (this.due('response')) await this.save('running');
  }

  /** A recorded outcome of a call of the in-flight step (a resumed run reuses it). */
  completedCall(toolCallId: string): CompletedCall | undefined {
    return this.inFlight?.completed[toolCallId];
  }

  /**
   * A tool call finished: its outcome is checkpointed, whatever the strategy, and this resolves
   * once that checkpoint is committed — only then is the call acknowledged (`tool_result`, the
   * next model call). Calls finishing while a checkpoint waits to be written share it.
   */
  async toolCompleted(toolCallId: string, output: unknown, isError: boolean): Promise<void> {
    if (this.inFlight === undefined) return;
    this.inFlight.completed[toolCallId] = { output, isError };
    this.timeline.toolDone(toolCallId, isError);
    await this.saveLatest();
  }

  /** The step's messages are in the history: nothing is in flight. */
  toolsDone(): void {
    this.inFlight = undefined;
  }

  /**
   * On a resumed run: the answer already stored for this call's approval (approved or denied
   * while the run was paused), so an inline `onApproval` handler does not ask again.
   */
  async storedAnswer(toolCallId: string): Promise<ApprovalVerdict | undefined> {
    if (!this.wasResumed) return undefined;
    const a = (await this.store.approvals.listForRun(this.runId)).find((x) => x.toolCallId === toolCallId);
    if (a === undefined || a.status === 'pending') return undefined;
    if (a.status === 'approved') return { status: 'approved' };
    return a.reason !== undefined ? { status: 'denied', reason: a.reason } : { status: 'denied' };
  }

  /**
   * Asks the store for the approval of a call: an answered one decides; otherwise it is created
   * (once per call: a resumed run gets the same one) and the call waits.
   */
  async approval(call: ToolCallRecord, prompt: string): Promise<ApprovalVerdict> {
    if (!this.inFlightSaved) await this.save('running');
    const a = await this.store.approvals.create({
      runId: this.runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      args: call.input,
      prompt,
    });
    if (a.status === 'approved') return { status: 'approved' };
    if (a.status === 'denied') return a.reason !== undefined ? { status: 'denied', reason: a.reason } : { status: 'denied' };
    return {
      status: 'pending',
      approval: { approvalId: a.id, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, prompt },
    };
  }

  /** A handoff: the finished step goes to the session with a `handoff` entry; the session's active agent changes. */
  async handoff(from: string, to: string, toolCallId: string): Promise<void> {
    await this.flush();
    if (this.sessionId !== undefined) {
      this.sessionLastSeq = await this.write(() =>
        this.store.sessions.append(
          this.sessionId!,
          { type: 'handoff', agent: from, runId: this.runId, data: { from, to, toolCallId } },
          { expectedLastSeq: this.sessionLastSeq },
        ),
      );
      await this.store.sessions.setActiveAgent(this.sessionId, to);
    }
    this.timeline.end();
    this.agent = to;
    this.step = 0;
    this.inFlight = undefined;
    await this.save('running');
  }

  /** The run waits for approvals: checkpoint `paused` with the in-flight step. */
  async pause(pending: PendingApproval[]): Promise<void> {
    for (const p of pending) this.pendingApprovals.push(p);
    this.timeline.paused();
    await this.persistState();
    await this.save('paused');
  }

  /** The run answered: everything to the session, state saved, checkpoint `completed`. */
  async complete(): Promise<void> {
    this.inFlight = undefined;
    this.timeline.end();
    await this.flush();
    await this.persistState();
    await this.save('completed');
  }

  /**
   * The run failed (checkpoint `failed`: it can still be resumed from the last good point) or was
   * cancelled (`cancelled`; what the model had streamed of the step it was in goes to the session as
   * an assistant message marked `interrupted`, with the checkpoint).
   */
  async fail(end: RunFailure = {}): Promise<void> {
    this.timeline.end();
    try {
      const partial = end.cancelled && this.sessionId !== undefined ? end.partialText?.trim() : undefined;
      if (!partial) return await this.save(end.cancelled ? 'cancelled' : 'failed');
      const message: Message = { role: 'assistant', content: [{ type: 'text', text: end.partialText! }] };
      const entries: SessionEntryInput[] = [{ message, agent: this.agent, runId: this.runId, data: { interrupted: true } }];
      const expectedLastSeq = this.sessionLastSeq;
      this.sessionLastSeq += 1;
      await this.save('cancelled', [], { entries, expectedLastSeq });
    } catch {
      // The run's own error is the one to report.
    }
  }

  /** Appends the run's messages that are not in the session yet. */
  private async flush(): Promise<void> {
    const id = this.sessionId;
    if (id === undefined) return;
    const from = this.baseLength + this.appended;
    if (this.history.length <= from) return;
    const messages = this.history.slice(from);
    const entries = messages.map((message): SessionEntryInput => {
      const usage = this.usageOf.get(message);
      return usage ? { message, agent: this.agent, runId: this.runId, usage } : { message, agent: this.agent, runId: this.runId };
    });
    const seqs = await this.write(() => this.store.sessions.appendMany(id, entries, { expectedLastSeq: this.sessionLastSeq }));
    this.sessionLastSeq = seqs[seqs.length - 1];
    this.appended += messages.length;
  }

  /** Saves the session scope of the run state (and the user scope when the session has a user). */
  private async persistState(): Promise<void> {
    const id = this.sessionId;
    if (id === undefined) return;
    await saveScope(this.store, { session: id }, this.state.session.toJSON());
    if (this.userId !== undefined && this.state.user.size > 0) await saveScope(this.store, { user: this.userId }, this.state.user.toJSON());
  }

  private due(point: CheckpointPoint): boolean {
    if (this.strategy === 'event') return true;
    if (this.strategy === 'hybrid' && point === 'response') return true;
    return performance.now() - this.lastSave >= this.intervalMs;
  }

  /** Queues a checkpoint of the state as it is now (`input`: messages about to join the history; `append`: entries written with it). */
  private save(status: RunStatus, input: readonly Message[] = [], append?: CheckpointAppend): Promise<void> {
    const state = this.snapshot(input);
    if (this.inFlight !== undefined) this.inFlightSaved = true;
    this.lastSave = performance.now();
    return this.write(() => this.writeCheckpoint(status, state, append));
  }

  /**
   * Queues a `running` checkpoint of the state as it is when the write begins: calls made while
   * it waits behind earlier writes share it (parallel tools finishing together: one write).
   */
  private saveLatest(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    const queued = this.write(() => {
      this.queued = undefined;
      const state = this.snapshot([]);
      if (this.inFlight !== undefined) this.inFlightSaved = true;
      this.lastSave = performance.now();
      return this.writeCheckpoint('running', state);
    });
    this.queued = queued;
    return queued;
  }

  private async writeCheckpoint(status: RunStatus, state: RunStateV1, append?: CheckpointAppend): Promise<void> {
    const input: CheckpointInput = {
      runId: this.runId,
      sessionId: this.sessionId,
      agent: this.rootAgent,
      status,
      state,
      expiresAt: this.ttlMs !== undefined ? new Date(Date.now() + this.ttlMs) : undefined,
    };
    if (append !== undefined) input.append = append;
    await this.store.checkpoints.save(input);
  }

  /** Store writes of one run happen one at a time, in call order. */
  private write<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.writes.then(fn);
    this.writes = next.catch(() => undefined);
    return next;
  }

  private snapshot(input: readonly Message[]): RunStateV1 {
    const s: RunStateV1 = {
      v: 1,
      rootAgent: this.rootAgent,
      agent: this.agent,
      input: this.input,
      step: this.step,
      usage: { ...this.usage },
      startedAt: this.startedAt,
      timeline: this.timeline.snapshot(),
    };
    if (this.sessionId !== undefined) {
      s.sessionLastSeq = this.sessionLastSeq;
      const from = this.baseLength + this.appended;
      if (this.history.length > from) s.pending = this.history.slice(from);
      if (this.userId !== undefined) s.userId = this.userId;
    } else {
      s.messages = input.length > 0 ? [...this.history, ...input] : this.history.slice();
      s.baseLength = this.baseLength;
    }
    if (this.inFlight !== undefined) {
      s.inFlight = { ...this.inFlight, completed: { ...this.inFlight.completed } };
    }
    if (this.state.session.size > 0) s.state = this.state.session.toJSON();
    return s;
  }
}

async function saveScope(store: Store, scope: { session: string } | { user: string }, values: Record<string, unknown>): Promise<void> {
  const existing = await store.state.list(scope);
  for (const e of existing) if (!(e.key in values)) await store.state.delete(scope, e.key);
  for (const [k, v] of Object.entries(values)) {
    const old = existing.find((e) => e.key === k);
    if (old === undefined || JSON.stringify(old.value) !== JSON.stringify(v)) await store.state.set(scope, k, v);
  }
}
