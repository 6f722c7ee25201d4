import type { NamedScore, Scorer } from './scorer.js';

/** `block`: a tripwire — a failed check stops the run before the model or tool (a `GuardrailError`); `check`: runs alongside, reports only. */
export type GuardrailMode = 'block' | 'check';

/** Where a guardrail runs. */
export type GuardrailStage = 'input' | 'output' | 'tool_call';

/** A scorer used as a guardrail. */
export interface Guardrail {
  scorer: Scorer;
  /** Default `block`. */
  mode?: GuardrailMode;
  /** Passes when the score is at least this; without one, the scorer's own `pass` decides. */
  threshold?: number;
  /** Tool-call guardrails: only calls of these tools are checked (default: every call). */
  tools?: readonly string[];
}

/**
 * An agent's guardrails. `input` runs before the first model call of a turn, `toolCalls` before
 * each tool call runs, `output` on the final answer. A bare `Scorer` is a `block` guardrail.
 */
export interface GuardrailOptions {
  input?: ReadonlyArray<Guardrail | Scorer>;
  output?: ReadonlyArray<Guardrail | Scorer>;
  toolCalls?: ReadonlyArray<Guardrail | Scorer>;
}

/** The scores of one finished run, as sampled live scoring reports them. */
export interface LiveScores {
  runId: string;
  agent: string;
  input: string;
  output: string;
  /** ISO time the scoring finished. */
  at: string;
  scores: NamedScore[];
}

/**
 * Sampled live scoring: a share of finished top-level runs is scored after the run, without
 * delaying it. The scores go to `onScores` (agents of a runtime: `.corvid/scores.jsonl`).
 */
export interface ScoringOptions {
  scorers: readonly Scorer[];
  /** Share of runs scored, from 0 to 1. Default 1. */
  sample?: number;
  /** Receives each scored run. */
  onScores?: (scores: LiveScores) => void | Promise<void>;
}
