import type { Store } from './storage/store.js';

/** The session a run reads its history from and writes its messages to. */
export type SessionRef = string | { id: string; userId?: string };

/** Where a durable run's store comes from: an open store, or a function opening one (e.g. `() => runtime.store()`). */
export type StoreSource = Store | (() => Promise<Store>);

/**
 * When a durable run writes checkpoints:
 * - `event` (default): after each model response that asks for tools and before each model call;
 * - `interval`: at those same points, but at most once every `intervalMs`;
 * - `hybrid`: after each model response, before model calls at most once every `intervalMs`.
 * The start (with the user's input), each tool result (before it is acknowledged), pauses,
 * completion, failure and handoffs are always checkpointed.
 */
export interface CheckpointOptions {
  strategy?: 'event' | 'interval' | 'hybrid';
  /** For `interval` / `hybrid`. Default 5000. */
  intervalMs?: number;
  /** Checkpoints expire (and are removed by `store.checkpoints.deleteExpired()`) this long after being written. Default: never. */
  ttlMs?: number;
}

/** What `RunOptions.onApproval` is asked. */
export interface ApprovalRequest {
  runId: string;
  agent: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The tool's prompt text, placeholders filled. */
  prompt: string;
}

/** The answer to an `ApprovalRequest`. */
export interface ApprovalDecision {
  approved: boolean;
  /** Shown to the model when denied. */
  reason?: string;
  /** Approve this tool for the rest of the conversation (the caller remembers it; see `corvid chat`). */
  always?: boolean;
}

/** Decides approvals in process, without pausing the run. */
export type ApprovalHandler = (request: ApprovalRequest) => Promise<ApprovalDecision> | ApprovalDecision;

/** What an agent contributes to its durable runs: where the store comes from, the checkpoint strategy. */
export interface DurableDefaults {
  store?: StoreSource;
  checkpoints?: CheckpointOptions;
}
