import type { z } from 'zod';

import { ValidationError } from '../../errors/validation-error.js';
import type { Scorer, ScoreResult } from '../../types/scorer.js';
import { binary, scoredText, type TextTarget } from './scored-text.js';

/** Options of `jsonSchema`. */
export interface JsonSchemaOptions {
  /** A JSON Schema the text, parsed as JSON, must satisfy. */
  schema: Record<string, unknown>;
  target?: TextTarget;
  name?: string;
}

/** Compiles a JSON Schema into a validator (zod's JSON Schema support). @throws ValidationError for an unusable schema. */
export function compileJsonSchema(zod: typeof z, schema: Record<string, unknown>): z.ZodType {
  try {
    return zod.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    throw new ValidationError(`json_schema scorer: the schema is not a usable JSON Schema: ${(err as Error).message}`);
  }
}

/**
 * Scores 1 when the text is JSON (a ```json fence around it is allowed) that satisfies the schema,
 * else 0 with the first problems as the reason. The validator is built on first use.
 */
export function jsonSchema(options: JsonSchemaOptions): Scorer {
  let compiled: Promise<z.ZodType> | undefined;
  return {
    name: options.name ?? 'json_schema',
    async score(input): Promise<ScoreResult> {
      compiled ??= import('zod').then(({ z: zod }) => compileJsonSchema(zod, options.schema));
      const schema = await compiled;
      const text = scoredText(input, options.target).trim();
      const body = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(text)?.[1] ?? text;
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (err) {
        return binary(false, `not JSON: ${(err as Error).message}`);
      }
      const r = schema.safeParse(value);
      if (r.success) return binary(true, 'valid JSON matching the schema');
      const problems = r.error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
      return binary(false, problems.join('; '), { issues: r.error.issues.length });
    },
  };
}
