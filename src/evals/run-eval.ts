import type { Runnable } from '../core/runnable.js';
import type { ScoreInput, Scorer, ScoreToolCall } from '../types/scorer.js';
import type { CaseResult, CaseScore, EvalResults, GateResult, ScoredRun } from './eval-results.js';
import type { EvalCase } from './eval-suite.js';

/** A scorer with its suite gate. */
export interface GatedScorer {
  scorer: Scorer;
  threshold: number;
  allK: boolean;
}

/** Options of `runEval`. */
export interface RunEvalOptions {
  suite: string;
  agent: Runnable;
  cases: readonly EvalCase[];
  scorers: readonly GatedScorer[];
  /** Runs per case. Default 1. */
  k?: number;
  /** Told after each case (progress). */
  onCase?: (result: CaseResult, index: number) => void;
  signal?: AbortSignal;
}

/**
 * Runs every case k times (one after another, so recorded model calls replay in order), scores
 * each run with every scorer and checks the gates: a scorer's mean over all runs must reach its
 * threshold, and with `allK` every case must pass in all k runs. A run that fails scores 0.
 */
export async function runEval(options: RunEvalOptions): Promise<EvalResults> {
  const k = options.k ?? 1;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const cases: CaseResult[] = [];
  for (const [index, c] of options.cases.entries()) {
    const runs: Array<ScoredRun[]> = options.scorers.map(() => []);
    const outputs: string[] = [];
    const errors: Array<string | null> = [];
    for (let i = 0; i < k; i++) {
      options.signal?.throwIfAborted();
      let input: ScoreInput;
      try {
        const r = await options.agent.run(c.input, options.signal ? { signal: options.signal } : undefined);
        const toolCalls: ScoreToolCall[] = [];
        for (const s of r.steps) {
          s.toolCalls.forEach((call, j) => {
            const res = s.toolResults[j];
            toolCalls.push(res ? { ...call, output: res.output, isError: res.isError } : { ...call });
          });
        }
        input = {
          stage: 'run',
          agent: r.agent,
          input: c.input,
          output: r.text,
          toolCalls,
          usage: r.usage,
          latencyMs: r.durationMs,
          steps: r.steps.length,
        };
        outputs.push(r.text);
        errors.push(null);
      } catch (err) {
        const message = (err as Error)?.message ?? String(err);
        outputs.push('');
        errors.push(message);
        options.scorers.forEach((_, j) => runs[j].push({ score: 0, pass: false, reason: `the run failed: ${message}` }));
        continue;
      }
      if (c.expected !== undefined) input.expected = c.expected;
      if (c.metadata !== undefined) input.metadata = c.metadata;
      for (const [j, g] of options.scorers.entries()) runs[j].push(await scoreOnce(g.scorer, input));
    }
    const scores: CaseScore[] = options.scorers.map((g, j) => ({
      scorer: g.scorer.name,
      runs: runs[j],
      mean: mean(runs[j].map((r) => r.score)),
      passes: runs[j].filter((r) => r.pass).length,
    }));
    const result: CaseResult = { id: c.id, input: c.input, outputs, errors, scores };
    cases.push(result);
    options.onCase?.(result, index);
  }
  const gates: GateResult[] = options.scorers.map((g, j) => {
    const all = cases.flatMap((c) => c.scores[j].runs.map((r) => r.score));
    const m = mean(all);
    const casesPassingAllK = cases.filter((c) => c.scores[j].passes === k).length;
    const pass = m >= g.threshold - 1e-9 && (!g.allK || casesPassingAllK === cases.length);
    return { scorer: g.scorer.name, threshold: g.threshold, mean: m, allK: g.allK, casesPassingAllK, pass };
  });
  return {
    corvidEval: 1,
    suite: options.suite,
    agent: options.agent.name,
    k,
    startedAt,
    durationMs: performance.now() - started,
    cases,
    gates,
    pass: gates.every((g) => g.pass),
  };
}

async function scoreOnce(scorer: Scorer, input: ScoreInput): Promise<ScoredRun> {
  try {
    const r = await scorer.score(input);
    const score = Number.isFinite(r.score) ? Math.min(1, Math.max(0, r.score)) : 0;
    return r.reason !== undefined ? { score, pass: r.pass, reason: r.reason } : { score, pass: r.pass };
  } catch (err) {
    return { score: 0, pass: false, reason: `the scorer failed: ${(err as Error)?.message ?? String(err)}` };
  }
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
