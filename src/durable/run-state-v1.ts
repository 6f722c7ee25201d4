import type { CompletedCall } from '../core/run-journal.js';
import { DurableRunError } from '../errors/durable-run-error.js';
import type { Message } from '../types/message.js';
import type { ToolCallRecord } from '../types/result.js';
import type { Usage } from '../types/usage.js';
import type { TimelineStep } from './run-timeline.js';

export type { CompletedCall };

/** The model step whose tools were running when the checkpoint was written. */
export interface InFlightStep {
  /** The loop step (from 1) of `RunStateV1.agent`. */
  step: number;
  /** The model's response, with its tool calls. */
  assistantMessage: Message;
  calls: ToolCallRecord[];
  /** Outcomes of the calls that finished, by tool call id. */
  completed: Record<string, CompletedCall>;
}

/**
 * The serialised state of a durable run, format version 1, as stored in `store.checkpoints`.
 * Never change its meaning: add a version 2 and keep reading this one (fixtures in
 * `test/durable/fixtures/` guard it).
 */
export interface RunStateV1 {
  v: 1;
  /** The agent the run was started on (`resume` must be called on it, or found from it). */
  rootAgent: string;
  /** The agent whose loop runs now (differs from `rootAgent` after a handoff). */
  agent: string;
  /** The run's input text (for `run_start` when it resumes). */
  input: string;
  /** Model steps finished by `agent`'s loop. */
  step: number;
  /** Usage so far. */
  usage: Usage;
  /** Session runs: the session's last seq the run wrote or saw. */
  sessionLastSeq?: number;
  /** Session runs: messages of the run not yet appended to the session (appended after `sessionLastSeq`). */
  pending?: Message[];
  /** Session runs: the user of the session. */
  userId?: string;
  /** Runs without a session: the whole conversation (history and the run's messages). */
  messages?: Message[];
  /** Runs without a session: how many of `messages` came before the run. */
  baseLength?: number;
  /** Tool calls of the current step and their finished outcomes. */
  inFlight?: InFlightStep;
  /** The session scope of the run's state. */
  state?: Record<string, unknown>;
  /** When the run started (ISO). */
  startedAt: string;
  /** Timings of the run's model steps and tool calls (absent in checkpoints of older versions). */
  timeline?: TimelineStep[];
}

/** The checkpoint formats this version reads. */
export type StoredRunState = RunStateV1;

/** Checks a stored state and returns it; anything else (newer format, damage) is a clear error. */
export function parseRunState(value: unknown, runId: string): StoredRunState {
  const s = value as Partial<RunStateV1> | undefined;
  if (!s || typeof s !== 'object' || typeof s.v !== 'number') {
    throw new DurableRunError(`Run "${runId}": its checkpoint is not a Corvid run state`, { kind: 'invalid', runId });
  }
  if (s.v !== 1) {
    throw new DurableRunError(
      `Run "${runId}": its checkpoint has format version ${s.v}, written by a newer Corvid; this version reads version 1 (upgrade Corvid to resume it)`,
      { kind: 'invalid', runId },
    );
  }
  if (typeof s.agent !== 'string' || typeof s.rootAgent !== 'string' || typeof s.step !== 'number' || !s.usage) {
    throw new DurableRunError(`Run "${runId}": its checkpoint is damaged (missing agent, step or usage)`, { kind: 'invalid', runId });
  }
  return s as RunStateV1;
}
