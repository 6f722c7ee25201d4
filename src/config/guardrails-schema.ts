import { z } from 'zod';

import { scorerSpecSchema } from '../evals/scorer-spec.js';

const mode = z
  .enum(['block', 'check'])
  .optional()
  .describe(
    'block: a failure stops the run (GuardrailError, code guardrail_tripped); check: runs alongside and only reports. Default: the list-level mode, else block.',
  );

/** One guardrail: a built-in scorer with its threshold and mode. */
export const guardrailEntrySchema = scorerSpecSchema({ mode });
/** One tool-call guardrail, optionally only for some tools. */
export const toolGuardrailEntrySchema = scorerSpecSchema({
  mode,
  tools: z.array(z.string().min(1)).optional().describe('Only calls of these tools are checked (default: every call).'),
});

/** `guardrails:` of an agent. */
export const guardrailsSchema = z
  .strictObject({
    mode: z.enum(['block', 'check']).optional().describe('Mode of entries without their own (default block).'),
    input: z.array(guardrailEntrySchema).optional().describe('Checked before the model sees the input.'),
    output: z.array(guardrailEntrySchema).optional().describe('Checked on the final answer.'),
    tool_calls: z.array(toolGuardrailEntrySchema).optional().describe('Checked before each tool call runs.'),
  })
  .describe('Scorers that check the input, tool calls and answer of each run (docs/evals.md). Each check emits a guardrail event.');

/** `scoring:` of an agent: sampled live scoring. */
export const scoringSchema = z
  .strictObject({
    sample: z.number().min(0).max(1).optional().describe('Share of runs scored, from 0 to 1 (default 1).'),
    scorers: z.array(scorerSpecSchema({})).min(1).describe('The scorers.'),
  })
  .describe('Scores a sample of finished runs afterwards (never delaying them); scores are appended to .corvid/scores.jsonl.');

/** `guardrails:` as written. */
export type GuardrailsFileEntry = z.output<typeof guardrailsSchema>;
/** `scoring:` as written. */
export type ScoringFileEntry = z.output<typeof scoringSchema>;
