import { Agent } from '../../core/agent.js';
import type { ModelInput } from '../../types/model.js';
import type { Scorer, ScoreResult } from '../../types/scorer.js';
import { excerpt } from './scored-text.js';

/** Options of `llmJudge`. */
export interface LlmJudgeOptions {
  /** The judging model: `'provider:model'`, a model config or an AI SDK model (in YAML: a name from `models`). */
  model: ModelInput;
  /** What a good answer is, e.g. "The answer is correct, polite and names the order number." */
  criteria: string;
  /** Passes when the score is at least this. Default 0.5. */
  passAt?: number;
  name?: string;
}

const INSTRUCTIONS = `You are an impartial judge grading an AI assistant's answer against criteria.
Reply with one JSON object and nothing else: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}.
1 means the criteria are fully met, 0 not at all.`;

/**
 * An LLM as judge: the model grades the answer (with the input, and the expected answer when the
 * case has one) against `criteria`, replying `{"score", "reason"}`. It calls the model through the
 * normal model layer as an agent named `judge` (so cassettes record and replay it).
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  const judge = new Agent({ name: 'judge', instructions: INSTRUCTIONS, model: options.model, maxSteps: 1, temperature: 0 });
  const passAt = options.passAt ?? 0.5;
  return {
    name: options.name ?? 'llm_judge',
    async score(input): Promise<ScoreResult> {
      const parts = [`Criteria: ${options.criteria}`, '', `User input:\n${input.input}`, '', `Answer:\n${input.output}`];
      if (input.expected?.output !== undefined) parts.push('', `Reference answer:\n${input.expected.output}`);
      const r = await judge.run(parts.join('\n'), input.signal ? { signal: input.signal } : undefined);
      const verdict = parseVerdict(r.text);
      if (verdict === undefined) return { score: 0, pass: false, reason: `the judge did not answer with a score: "${excerpt(r.text)}"` };
      const result: ScoreResult = { score: verdict.score, pass: verdict.score >= passAt };
      if (verdict.reason) result.reason = verdict.reason;
      return result;
    },
  };
}

/** `{"score": 0.8, "reason": "…"}` anywhere in the text (a 0–10 score is scaled down), else a bare number. */
export function parseVerdict(text: string): { score: number; reason?: string } | undefined {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  let score: number | undefined;
  let reason: string | undefined;
  if (json !== undefined) {
    try {
      const v = JSON.parse(json) as { score?: unknown; reason?: unknown };
      if (typeof v.score === 'number' || typeof v.score === 'string') score = Number(v.score);
      if (typeof v.reason === 'string') reason = v.reason;
    } catch {
      // fall through to a bare number
    }
  }
  if (score === undefined || Number.isNaN(score)) {
    const n = /-?\d+(?:\.\d+)?/.exec(text)?.[0];
    score = n === undefined ? undefined : Number(n);
  }
  if (score === undefined || Number.isNaN(score)) return undefined;
  if (score > 1 && score <= 10) score /= 10;
  score = Math.min(1, Math.max(0, score));
  return reason !== undefined ? { score, reason } : { score };
}
