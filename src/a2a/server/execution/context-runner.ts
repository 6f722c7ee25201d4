import { TaskNotFoundError } from '@a2a-js/sdk/errors';

import { reportRejection } from '../../../core/report-rejection.js';
import type { Runnable } from '../../../core/runnable.js';
import { resumeRun, startRun } from '../../../core/start-run.js';
import type { EventSink } from '../../../types/events.js';
import type { Message } from '../../../types/message.js';
import type { PendingApproval, RunResult } from '../../../types/result.js';
import type { Store } from '../../../types/storage/store.js';
import { RecentMap } from '../recent-map.js';

/** How a turn ended: with an answer, with a question for the user (`ask_user`), or paused until tool calls are approved. */
export type TurnOutcome =
  | { kind: 'answer'; text: string }
  | { kind: 'question'; question: string }
  | { kind: 'approval'; runId: string; approvals: PendingApproval[] };

/** One turn of a context's conversation. */
export interface TurnRequest {
  agent: Runnable;
  contextId: string;
  input: string;
  signal: AbortSignal;
  onEvent: EventSink;
  /** Stream the model (text deltas as they come). */
  streaming: boolean;
  /** The context id was just made for this turn: it has no conversation yet. */
  newContext?: boolean;
  /** The caller (`callerOf`; `''` anonymous): a context belongs to the caller that started it. */
  owner: string;
}

/** Options for `ContextRunner`. */
export interface ContextRunnerOptions {
  name: string;
  /** With a store, a context is a Corvid session run (history, state, checkpoints, approvals). */
  store?: () => Promise<Store>;
  /** In-memory conversations kept: at least the last `maxContexts` used, at most twice as many. Default 10000. */
  maxContexts?: number;
}

/** A conversation kept in memory: its owner, then its messages. */
type HeldConversation = readonly [owner: string, messages: readonly Message[]];

/**
 * Runs turns of A2A contexts, one at a time per context. With a store a context id is a session
 * id and each turn a durable session run (so `requireApproval` tools pause it); without one the
 * conversation is kept in memory. A context belongs to the caller that started it (with a store,
 * its session's `userId`): `ownedByOther` tells whether another caller owns a context id.
 */
export class ContextRunner {
  private readonly memory: RecentMap<string, HeldConversation>;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ContextRunnerOptions) {
    this.memory = new RecentMap(options.maxContexts ?? 10_000);
  }

  /**
   * Whether context `contextId` exists and belongs to a caller other than `owner` (who must then
   * be told it is not found). A context id nobody used yet is free.
   */
  async ownedByOther(contextId: string, owner: string): Promise<boolean> {
    if (!this.options.store) {
      const held = this.memory.get(contextId);
      return held !== undefined && held[0] !== owner;
    }
    const session = await (await this.options.store()).sessions.get(contextId);
    return session !== undefined && (session.userId ?? '') !== owner;
  }

  /** Runs `input` as the context's next turn. */
  turn(req: TurnRequest): Promise<TurnOutcome> {
    return this.exclusive(req.contextId, async () => {
      if (!req.newContext && (await this.ownedByOther(req.contextId, req.owner))) throw contextNotFound(req.contextId);
      if (!this.options.store) return outcome(await this.memoryTurn(req));
      const store = this.options.store;
      const session = req.owner ? { id: req.contextId, userId: req.owner } : req.contextId;
      const result = await startRun(req.agent, req.input, {
        options: { signal: req.signal, onEvent: req.onEvent, session, store },
        stream: req.streaming,
      });
      return outcome(result);
    });
  }

  /** Answers the pending approvals of a paused run and resumes it. */
  resume(req: Omit<TurnRequest, 'input'> & { runId: string; decision: { approved: boolean; reason?: string } }): Promise<TurnOutcome> {
    return this.exclusive(req.contextId, async () => {
      const store = await this.options.store!();
      for (const a of await store.approvals.listPending({ runId: req.runId })) await store.approvals.answer(a.id, req.decision);
      const result = await resumeRun(req.agent, req.runId, {
        options: { signal: req.signal, onEvent: req.onEvent },
        stream: req.streaming,
        defaults: { store: this.options.store },
      });
      return outcome(result);
    });
  }

  private async memoryTurn(req: TurnRequest): Promise<RunResult> {
    const kept = req.newContext ? undefined : this.memory.get(req.contextId);
    // A copy: the run appends to it, and kept messages are never changed through it.
    const history: Message[] = kept === undefined ? [] : kept[1].map((m) => ({ ...m }) as Message);
    // The agent appends the turn to `history` when it succeeds (and leaves it as it was if not).
    const result = await req.agent.execute({
      history,
      input: req.input,
      options: { signal: req.signal, onEvent: req.onEvent },
      stream: req.streaming,
    });
    this.memory.set(req.contextId, [req.owner, [...history]]);
    return result;
  }

  /** Runs `fn` after earlier turns of the same context. */
  private exclusive<T>(contextId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(contextId);
    // Nothing running on this context: start now, without waiting a turn of the event loop.
    const run = previous ? previous.then(fn, fn) : fn();
    const settled = run.catch(() => undefined);
    this.locks.set(contextId, settled);
    void settled
      .then(() => {
        if (this.locks.get(contextId) === settled) this.locks.delete(contextId);
      })
      .catch(reportRejection('releasing an A2A context lock'));
    return run;
  }
}

/** The error for a context id that belongs to another caller: as if it did not exist. */
export function contextNotFound(contextId: string): TaskNotFoundError {
  return new TaskNotFoundError(`Context not found: ${contextId.slice(0, 150)}`);
}

function outcome(result: RunResult): TurnOutcome {
  if (result.status === 'paused') return { kind: 'approval', runId: result.runId, approvals: result.pendingApprovals ?? [] };
  if (result.needsInput) return { kind: 'question', question: result.needsInput.question };
  return { kind: 'answer', text: result.text };
}
