/** One run of a case, as a scorer saw it. */
export interface ScoredRun {
  score: number;
  pass: boolean;
  reason?: string;
}

/** One scorer's verdicts on one case, over its k runs. */
export interface CaseScore {
  scorer: string;
  runs: ScoredRun[];
  /** Mean score over the runs. */
  mean: number;
  /** Runs that passed. */
  passes: number;
}

/** One case of an eval run. */
export interface CaseResult {
  id: string;
  input: string;
  /** The answer of each run ('' when the run failed). */
  outputs: string[];
  /** The error of each failed run (`null` for runs that answered). */
  errors: Array<string | null>;
  scores: CaseScore[];
}

/** A scorer's gate over the whole suite. */
export interface GateResult {
  scorer: string;
  threshold: number;
  /** Mean score over every case and run. */
  mean: number;
  allK: boolean;
  /** Cases that passed in all k runs. */
  casesPassingAllK: number;
  pass: boolean;
}

/** A change of one case's mean score against the baseline. */
export interface BaselineChange {
  case: string;
  scorer: string;
  before?: number;
  after?: number;
  change: 'improved' | 'regressed' | 'unchanged' | 'new' | 'removed';
}

/** What `corvid eval` writes to `.corvid/evals/*.json` (and reads back as a baseline). */
export interface EvalResults {
  corvidEval: 1;
  suite: string;
  agent: string;
  k: number;
  startedAt: string;
  durationMs: number;
  cases: CaseResult[];
  gates: GateResult[];
  /** Every gate passed. */
  pass: boolean;
  /** The comparison with `--baseline`, when one was given and found. */
  baseline?: { file: string; changes: BaselineChange[] };
}
