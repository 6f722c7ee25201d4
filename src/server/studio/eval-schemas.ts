import { z } from 'zod';

/**
 * The saved results of `corvid eval` (`.corvid/evals/<suite>-<time>.json`, the shape of
 * `EvalResults`) and the answers of the Studio's eval routes. The same schema checks a file when
 * it is read and documents the answer; keys it does not know are dropped.
 */

const timestamp = () => z.string().meta({ format: 'date-time' });

const scoredRunSchema = z.object({
  score: z.number(),
  pass: z.boolean(),
  reason: z.string().optional(),
});

const caseScoreSchema = z.object({
  scorer: z.string(),
  runs: z.array(scoredRunSchema).meta({ description: 'One verdict per run (k)' }),
  mean: z.number().meta({ description: 'Mean score over the runs' }),
  passes: z.number().int().meta({ description: 'Runs that passed' }),
});

const caseResultSchema = z.object({
  id: z.string(),
  input: z.string(),
  outputs: z.array(z.string()).meta({ description: "Each run's answer ('' when the run failed)" }),
  errors: z.array(z.string().nullable()).meta({ description: "Each run's error (null for runs that answered)" }),
  scores: z.array(caseScoreSchema),
});

/** A scorer's gate over a whole eval run. */
export const evalGateSchema = z.object({
  scorer: z.string(),
  threshold: z.number(),
  mean: z.number().meta({ description: 'Mean score over every case and run' }),
  allK: z.boolean().meta({ description: 'Whether every case must pass in all k runs' }),
  casesPassingAllK: z.number().int(),
  pass: z.boolean(),
});

/** How one case's mean score for one scorer moved between two eval runs. */
export const evalChangeSchema = z.object({
  case: z.string(),
  scorer: z.string(),
  before: z.number().optional(),
  after: z.number().optional(),
  change: z.enum(['improved', 'regressed', 'unchanged', 'new', 'removed']),
});

/** What `corvid eval` saves: the file as it is read back. */
export const evalResultsSchema = z.object({
  corvidEval: z.literal(1),
  suite: z.string(),
  agent: z.string(),
  k: z.number().int().min(1),
  startedAt: timestamp(),
  durationMs: z.number(),
  cases: z.array(caseResultSchema),
  gates: z.array(evalGateSchema),
  pass: z.boolean().meta({ description: 'Every gate passed' }),
  baseline: z
    .object({ file: z.string(), changes: z.array(evalChangeSchema) })
    .optional()
    .meta({ description: 'The comparison with `--baseline`, when the run had one' }),
});

const evalIdSchema = () => z.string().meta({ description: 'The file name under `.corvid/evals/` without `.json`' });

/** One saved eval run in `GET /api/v1/evals`. */
export const evalRunSummarySchema = z.object({
  id: evalIdSchema(),
  suite: z.string(),
  agent: z.string(),
  startedAt: timestamp(),
  durationMs: z.number(),
  k: z.number().int().meta({ description: 'Runs per case' }),
  cases: z.number().int().meta({ description: 'Number of cases' }),
  pass: z.boolean().meta({ description: 'Every gate passed' }),
  gates: z.array(evalGateSchema),
});

/** `GET /api/v1/evals`. */
export const evalRunListSchema = z.object({
  runs: z.array(evalRunSummarySchema).meta({ description: 'Newest first' }),
  unreadable: z
    .array(z.object({ id: evalIdSchema(), message: z.string() }))
    .meta({ description: 'Files under `.corvid/evals/` that are not eval results (left out of `runs`)' }),
});

/** `GET /api/v1/evals/{id}`. */
export const evalRunSchema = z.object({
  id: evalIdSchema(),
  results: evalResultsSchema,
  previous: z
    .object({ id: evalIdSchema(), startedAt: timestamp() })
    .optional()
    .meta({ description: 'The run of the same suite before this one, when there is one' }),
  changes: z
    .array(evalChangeSchema)
    .optional()
    .meta({ description: 'Per case and scorer, how the mean score moved since `previous` (absent when there is none)' }),
});

/** A saved eval run as read (`evalResultsSchema`'s output). */
export type EvalResultsFile = z.output<typeof evalResultsSchema>;
