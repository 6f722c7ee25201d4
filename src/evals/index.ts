// `corvid/evals`: the built-in scorers and the eval runner (no zod, no YAML at import).
import '../models/index.js';
export type { BaselineChange, CaseResult, CaseScore, EvalResults, GateResult, ScoredRun } from './eval-results.js';
export type { EvalCase } from './eval-suite.js';
export { type GatedScorer, runEval, type RunEvalOptions } from './run-eval.js';
export { budget, type BudgetOptions } from './scorers/budget.js';
export { exactMatch, type ExactMatchOptions } from './scorers/exact-match.js';
export { jsonSchema, type JsonSchemaOptions } from './scorers/json-schema.js';
export { llmJudge, type LlmJudgeOptions } from './scorers/llm-judge.js';
export { regexMatch, type RegexMatchOptions } from './scorers/regex-match.js';
export type { TextTarget } from './scorers/scored-text.js';
export { toolTrajectory, type ToolTrajectoryOptions, type TrajectoryMode } from './scorers/tool-trajectory.js';
