import type { ScoringOptions } from '../types/guardrail.js';
import type { RunResult } from '../types/result.js';
import type { NamedScore, ScoreInput, ScoreToolCall } from '../types/scorer.js';

/**
 * Sampled live scoring of a finished run: with probability `sample`, scores the run with every
 * scorer after it ended (never delaying it) and hands the scores to `onScores`. A scorer that
 * throws scores 0 with the error as the reason. Returns the scoring's promise when the run was sampled, else
 * `undefined`; it rejects only when `onScores` throws.
 */
export function scoreLive(
  options: ScoringOptions,
  input: string,
  result: RunResult,
  random: () => number = Math.random,
): Promise<void> | undefined {
  const sample = options.sample ?? 1;
  if (options.scorers.length === 0 || sample <= 0 || random() >= sample) return undefined;
  const toolCalls: ScoreToolCall[] = [];
  for (const s of result.steps) {
    s.toolCalls.forEach((c, i) => {
      const r = s.toolResults[i];
      toolCalls.push(r ? { ...c, output: r.output, isError: r.isError } : { ...c });
    });
  }
  const scoreInput: ScoreInput = {
    stage: 'run',
    agent: result.agent,
    input,
    output: result.text,
    toolCalls,
    usage: result.usage,
    latencyMs: result.durationMs,
    steps: result.steps.length,
  };
  return (async () => {
    const scores: NamedScore[] = await Promise.all(
      options.scorers.map(async (s) => {
        try {
          const r = await s.score(scoreInput);
          return { scorer: s.name, ...r };
        } catch (err) {
          return { scorer: s.name, score: 0, pass: false, reason: `the scorer failed: ${(err as Error)?.message ?? String(err)}` };
        }
      }),
    );
    await options.onScores?.({
      runId: result.runId,
      agent: result.agent,
      input,
      output: result.text,
      at: new Date().toISOString(),
      scores,
    });
  })();
}
