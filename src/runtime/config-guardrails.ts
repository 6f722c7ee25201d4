import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

import type { AgentConfig } from '../config/corvid-config.js';
import { buildScorer, type JudgeModelResolver, type ScorerSpec } from '../evals/scorer-spec.js';
import type { Guardrail, GuardrailMode, GuardrailOptions, LiveScores, ScoringOptions } from '../types/guardrail.js';
import type { Scorer } from '../types/scorer.js';

/** Reports a problem at a config path (`agents.x.guardrails.input[0]`). */
type Issue = (path: string, message: string) => void;

/** The guardrails an agent's `guardrails:` describes; a scorer that cannot be built is an issue at its path. */
export function configGuardrails(def: AgentConfig, path: string, model: JudgeModelResolver, issue: Issue): GuardrailOptions | undefined {
  const g = def.guardrails;
  if (g === undefined) return undefined;
  const listMode: GuardrailMode = g.mode ?? 'block';
  const build = (
    key: string,
    list: Array<ScorerSpec & { mode?: GuardrailMode; tools?: string[] }> | undefined,
  ): Guardrail[] | undefined => {
    if (list === undefined) return undefined;
    const out: Guardrail[] = [];
    list.forEach((spec, i) => {
      const scorer = tryBuild(spec, `${path}.guardrails.${key}[${i}]`, model, issue);
      if (scorer === undefined) return;
      const guardrail: Guardrail = { scorer, mode: spec.mode ?? listMode };
      if (spec.threshold !== undefined) guardrail.threshold = spec.threshold;
      if (spec.tools !== undefined) guardrail.tools = spec.tools;
      out.push(guardrail);
    });
    return out;
  };
  const options: GuardrailOptions = {};
  const input = build('input', g.input);
  const output = build('output', g.output);
  const toolCalls = build('tool_calls', g.tool_calls);
  if (input) options.input = input;
  if (output) options.output = output;
  if (toolCalls) options.toolCalls = toolCalls;
  return options;
}

/** The live scoring an agent's `scoring:` describes: scores appended to `scoresFile` as JSON lines. */
export function configScoring(
  def: AgentConfig,
  path: string,
  model: JudgeModelResolver,
  issue: Issue,
  scoresFile: string | undefined,
): ScoringOptions | undefined {
  const s = def.scoring;
  if (s === undefined) return undefined;
  const scorers: Scorer[] = [];
  s.scorers.forEach((spec, i) => {
    const scorer = tryBuild(spec, `${path}.scoring.scorers[${i}]`, model, issue);
    if (scorer !== undefined) scorers.push(scorer);
  });
  const options: ScoringOptions = { scorers, sample: s.sample ?? 1 };
  if (scoresFile !== undefined) options.onScores = (scores) => appendScores(scoresFile, scores);
  return options;
}

function tryBuild(spec: ScorerSpec, path: string, model: JudgeModelResolver, issue: Issue): Scorer | undefined {
  try {
    return buildScorer(spec, model);
  } catch (err) {
    issue(path, (err as Error).message);
    return undefined;
  }
}

/** Appends one scored run to the scores file (`.corvid/scores.jsonl`). */
async function appendScores(file: string, scores: LiveScores): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(scores)}\n`);
}
