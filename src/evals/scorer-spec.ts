import { z } from 'zod';

import type { ModelInput } from '../types/model.js';
import type { Scorer } from '../types/scorer.js';
import { budget } from './scorers/budget.js';
import { exactMatch } from './scorers/exact-match.js';
import { compileJsonSchema, jsonSchema } from './scorers/json-schema.js';
import { llmJudge } from './scorers/llm-judge.js';
import { regexMatch } from './scorers/regex-match.js';
import { toolTrajectory } from './scorers/tool-trajectory.js';

const target = z
  .enum(['input', 'output', 'tool_calls'])
  .optional()
  .describe(
    'The text checked: input, output or tool_calls. Default: the input for input guardrails, the call for tool-call guardrails, else the answer.',
  );
const name = z
  .string()
  .regex(/^[A-Za-z][\w.-]{0,63}$/, { error: 'scorer names use letters, digits, "_", "." and "-"' })
  .optional();
const expectedCall = z.strictObject({
  tool: z.string().min(1).describe('The tool name.'),
  args: z.record(z.string(), z.unknown()).optional().describe('The arguments it must get (absent: any).'),
});

/** The scorer kinds YAML can name (`type:`). */
export const SCORER_TYPES = ['exact', 'regex', 'json_schema', 'tool_calls', 'budget', 'llm_judge'] as const;

const variants = {
  exact: {
    expected: z.string().optional().describe("The text to match; default the case's expected output."),
    ignore_case: z.boolean().optional(),
    trim: z.boolean().optional().describe('Ignore leading and trailing whitespace (default true).'),
    target,
  },
  regex: {
    pattern: z.string().min(1).describe('A JavaScript regular expression.'),
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/, { error: 'regex flags are letters of dgimsuvy' })
      .optional(),
    negate: z.boolean().optional().describe('Pass when the pattern does not match (a guardrail against it).'),
    target,
  },
  json_schema: { schema: z.record(z.string(), z.unknown()).describe('A JSON Schema the text, parsed as JSON, must satisfy.'), target },
  tool_calls: {
    expected: z.array(expectedCall).optional().describe("The expected calls; default the case's expected_tool_calls."),
    mode: z.enum(['exact', 'in_order', 'any_order', 'subset']).optional().describe('How calls are compared (default exact).'),
    ignore_args: z.array(z.string().min(1)).optional().describe('Argument names left out of the comparison.'),
  },
  budget: {
    max_tokens: z.number().int().positive().optional(),
    max_input_tokens: z.number().int().positive().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    max_latency_ms: z.number().positive().optional(),
    max_steps: z.number().int().positive().optional(),
    max_cost_usd: z.number().positive().optional(),
    price_per_million: z
      .strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() })
      .optional()
      .describe('USD per million input and output tokens, for max_cost_usd.'),
  },
  llm_judge: {
    model: z.string().min(1).describe('The judging model: a name from `models` or provider:model.'),
    criteria: z.string().min(1).describe('What a good answer is.'),
    pass_at: z.number().min(0).max(1).optional().describe("The judge's score that counts as a pass (default 0.5)."),
  },
} satisfies Record<(typeof SCORER_TYPES)[number], z.ZodRawShape>;

/**
 * The schema of a built-in scorer reference (`{ type: regex, pattern: … }`), with `extra` keys of
 * the place it is used (guardrail mode, eval gates).
 */
export function scorerSpecSchema<E extends z.ZodRawShape>(extra: E) {
  const common = {
    name: name.describe('Name in events, reports and gates (default: the type).'),
    threshold: z.number().min(0).max(1).optional(),
    ...extra,
  };
  const v = variants;
  return z.discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('exact'), ...v.exact, ...common }),
      z.strictObject({ type: z.literal('regex'), ...v.regex, ...common }),
      z.strictObject({ type: z.literal('json_schema'), ...v.json_schema, ...common }),
      z.strictObject({ type: z.literal('tool_calls'), ...v.tool_calls, ...common }),
      z.strictObject({ type: z.literal('budget'), ...v.budget, ...common }),
      z.strictObject({ type: z.literal('llm_judge'), ...v.llm_judge, ...common }),
    ],
    { error: (issue) => (issue.code === 'invalid_union' ? `scorer type must be one of: ${SCORER_TYPES.join(', ')}` : undefined) },
  );
}

/** A built-in scorer reference as written in YAML (the keys every use shares). */
export type ScorerSpec = z.output<ReturnType<typeof scorerSpecSchema<Record<never, never>>>>;

/** Resolves the model reference of an `llm_judge` scorer. */
export type JudgeModelResolver = (ref: string) => ModelInput;

/** Builds the scorer a YAML reference describes. `name` defaults to the type. */
export function buildScorer(spec: ScorerSpec, resolveModel: JudgeModelResolver): Scorer {
  const name = spec.name ?? spec.type;
  switch (spec.type) {
    case 'exact':
      return exactMatch({ name, expected: spec.expected, ignoreCase: spec.ignore_case, trim: spec.trim, target: spec.target });
    case 'regex':
      return regexMatch({ name, pattern: spec.pattern, flags: spec.flags, negate: spec.negate, target: spec.target });
    case 'json_schema':
      compileJsonSchema(z, spec.schema); // an unusable schema is reported now, not at the first score
      return jsonSchema({ name, schema: spec.schema, target: spec.target });
    case 'tool_calls':
      return toolTrajectory({
        name,
        expected: spec.expected,
        mode: spec.mode,
        ignoreArgs: spec.ignore_args,
      });
    case 'budget':
      return budget({
        name,
        maxTokens: spec.max_tokens,
        maxInputTokens: spec.max_input_tokens,
        maxOutputTokens: spec.max_output_tokens,
        maxLatencyMs: spec.max_latency_ms,
        maxSteps: spec.max_steps,
        maxCostUsd: spec.max_cost_usd,
        pricePerMillion: spec.price_per_million,
      });
    case 'llm_judge':
      return llmJudge({ name, model: resolveModel(spec.model), criteria: spec.criteria, passAt: spec.pass_at });
    default: {
      const never: never = spec;
      return never;
    }
  }
}
