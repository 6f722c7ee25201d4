import type { Usage } from './usage.js';

/** Where a score is taken: before the model (`input`), on a tool call, on the final answer, or on a finished run. */
export type ScoreStage = 'input' | 'tool_call' | 'output' | 'run';

/** One tool call of the run being scored. */
export interface ScoreToolCall {
  toolName: string;
  /** The arguments the model gave. */
  input: unknown;
  /** The tool's result, when it ran. */
  output?: unknown;
  isError?: boolean;
  toolCallId?: string;
}

/** An expected tool call (`expected.toolCalls`): the tool, and the arguments it must get (absent: any). */
export interface ExpectedToolCall {
  tool: string;
  args?: Record<string, unknown>;
}

/** What a dataset case expects; scorers read the parts they need. */
export interface ScoreExpectation {
  /** The expected answer (exact match, LLM judge reference). */
  output?: string;
  /** The expected tool-call trajectory. */
  toolCalls?: ExpectedToolCall[];
}

/**
 * What a scorer sees. Inline guardrails fill what is known at their stage (an input guardrail has
 * no output yet; a tool-call guardrail has the one call); `corvid eval` and live scoring fill it all.
 */
export interface ScoreInput {
  stage: ScoreStage;
  /** The agent that ran. */
  agent: string;
  /** The run's input (the user's message). */
  input: string;
  /** The final answer ('' before there is one). */
  output: string;
  /** The run's tool calls in order (at the `tool_call` stage: the call being checked). */
  toolCalls: ScoreToolCall[];
  /** Token usage so far. */
  usage?: Usage;
  /** Wall time of the run so far, in ms. */
  latencyMs?: number;
  /** Model steps taken so far. */
  steps?: number;
  /** What the case expects (`corvid eval`). */
  expected?: ScoreExpectation;
  /** Free-form data of the case. */
  metadata?: Record<string, unknown>;
  /** Cancelled with the run. */
  signal?: AbortSignal;
}

/** A scorer's verdict. */
export interface ScoreResult {
  /** From 0 (worst) to 1 (best). */
  score: number;
  /** Whether it passed by the scorer's own standard. */
  pass: boolean;
  /** Why, for people. */
  reason?: string;
  /** Anything measured on the way (serialisable). */
  details?: Record<string, unknown>;
}

/**
 * One way of scoring a run, used three ways: as an inline guardrail (`guardrails` of an agent),
 * for sampled live scoring (`scoring`), and offline by `corvid eval`.
 * @example
 * const polite: Scorer = { name: 'polite', score: ({ output }) => ({ score: /please|thanks/i.test(output) ? 1 : 0, pass: /please|thanks/i.test(output) }) };
 */
export interface Scorer {
  readonly name: string;
  score(input: ScoreInput): ScoreResult | Promise<ScoreResult>;
}

/** One scorer's verdict, with the scorer's name (events, stored scores, eval results). */
export interface NamedScore extends ScoreResult {
  scorer: string;
}
