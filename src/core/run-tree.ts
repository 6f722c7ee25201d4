import { CorvidError } from '../errors/corvid-error.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { Usage } from '../types/usage.js';
import { linkAbort } from './abort-link.js';

/**
 * Limits of one run and everything it starts (nested agents, workflow branches, handoffs).
 * Exceeding one stops the whole run with a `LimitExceededError` naming the agent and the limit.
 */
export interface RunLimits {
  /** Deepest agent nesting (the length of an event `path`). Default 10. */
  maxDepth?: number;
  /** Model steps (calls) across every agent of the run. */
  maxTotalSteps?: number;
  /** Tokens (input + output) across every agent of the run. */
  maxTotalTokens?: number;
  /** Wall time of the whole run, in ms. */
  maxDurationMs?: number;
}

/** Nesting allowed when no `maxDepth` is set. */
export const DEFAULT_MAX_DEPTH = 10;

/**
 * The budget tracker of one top-level run, shared by every agent in it. Created only when limits
 * are set, so a run without limits pays nothing for it. A limit hit anywhere aborts the tree's
 * signal with the `LimitExceededError` as reason, stopping every branch.
 */
export class RunTree {
  readonly limits: RunLimits;
  /** Aborted (with the limit error as reason) when a budget is exceeded, or with the caller's signal. */
  readonly signal: AbortSignal;
  steps = 0;
  tokens = 0;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: LimitExceededError | undefined;
  private lastAgent: string;
  private lastPath: readonly string[];
  private readonly unlink: () => void;

  constructor(limits: RunLimits, root: string, signal: AbortSignal | undefined) {
    this.limits = limits;
    this.lastAgent = root;
    this.lastPath = [root];
    this.unlink = linkAbort(signal, this.controller);
    this.signal = this.controller.signal;
    const ms = limits.maxDurationMs;
    if (ms !== undefined && ms > 0) {
      this.timer = setTimeout(() => {
        this.fail(new LimitExceededError({ limit: 'max_duration_ms', value: ms, agent: this.lastAgent, path: this.lastPath }));
      }, ms);
      this.timer.unref?.();
    }
  }

  /** Counts one model step of `agent`; throws when the step budget is exceeded. */
  step(agent: string, path: readonly string[]): void {
    this.lastAgent = agent;
    this.lastPath = path;
    const max = this.limits.maxTotalSteps;
    if (max !== undefined && ++this.steps > max) {
      throw this.fail(new LimitExceededError({ limit: 'max_total_steps', value: max, used: this.steps, agent, path }));
    }
  }

  /** Counts a step's tokens; throws when the token budget is exceeded. */
  addTokens(usage: Usage, agent: string, path: readonly string[]): void {
    this.tokens += usage.totalTokens;
    const max = this.limits.maxTotalTokens;
    if (max !== undefined && this.tokens > max) {
      throw this.fail(new LimitExceededError({ limit: 'max_total_tokens', value: max, used: this.tokens, agent, path }));
    }
  }

  /** Records the first limit error and stops every branch; returns the error to throw. */
  fail(error: LimitExceededError): LimitExceededError {
    if (!this.failure) {
      this.failure = error;
      this.controller.abort(error);
    }
    return this.failure;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.unlink();
  }
}

/** The maximum nesting depth for a run in `tree` (or the default without one). */
export function maxDepthOf(tree: RunTree | undefined): number {
  return tree?.limits.maxDepth ?? DEFAULT_MAX_DEPTH;
}

/** Throws a `LimitExceededError` (stopping the tree) when `path` is deeper than allowed. */
export function checkDepth(path: readonly string[], tree: RunTree | undefined, agent: string): void {
  const max = maxDepthOf(tree);
  if (path.length > max) {
    const err = new LimitExceededError({ limit: 'max_depth', value: max, agent, path });
    throw tree ? tree.fail(err) : err;
  }
}

/** True for errors that must stop the whole run rather than go back to a model as a tool result. */
export function isFatalRunError(error: unknown): boolean {
  if (!CorvidError.isInstance(error)) return false;
  return error.code === 'limit_exceeded' || error.code === 'template_key_missing';
}

/**
 * The error a run reports when its signal was aborted: the limit error that aborted the tree,
 * or a `RunAbortedError` (keeping one already thrown).
 */
export function abortedError(signal: AbortSignal, err: unknown): unknown {
  const reason: unknown = signal.reason;
  if (CorvidError.isInstance(reason) && reason.code === 'limit_exceeded') return reason;
  if (err instanceof RunAbortedError) return err;
  return new RunAbortedError(undefined, { cause: err });
}
