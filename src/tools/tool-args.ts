import type { JSONSchema7 } from '@ai-sdk/provider';

import type { StandardSchemaLike } from '../types/tool.js';

/** One argument of a built-in tool. Strings are trimmed; `min` / `max` bound lengths (strings), values (integers) or item counts (arrays). */
export type ArgSpec =
  | { type: 'string'; description: string; required?: boolean; min?: number; max?: number }
  | { type: 'integer'; description: string; required?: boolean; min: number; max: number }
  | { type: 'enum'; description: string; required?: boolean; values: readonly string[] }
  | { type: 'string-array'; description: string; required?: boolean; max: number; itemMax: number };

type Issue = { message: string; path: string[] };

/**
 * The arguments of a built-in tool: a JSON Schema for the model and a Standard Schema validator,
 * without loading zod (the root `corvid` entry stays light). Unknown properties are dropped.
 */
export function toolArgs<T>(spec: Record<string, ArgSpec>): { input: StandardSchemaLike<T>; parameters: JSONSchema7 } {
  const properties: Record<string, JSONSchema7> = {};
  for (const [key, a] of Object.entries(spec)) properties[key] = jsonSchemaOf(a);
  const required = Object.entries(spec).flatMap(([k, a]) => (a.required ? [k] : []));
  const parameters: JSONSchema7 = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  const validate = (value: unknown): { value: T } | { issues: Issue[] } => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { issues: [{ message: 'expected an object of arguments', path: [] }] };
    const out: Record<string, unknown> = {};
    const issues: Issue[] = [];
    for (const [key, a] of Object.entries(spec)) {
      const raw = (value as Record<string, unknown>)[key];
      if (raw === undefined || raw === null) {
        if (a.required) issues.push({ message: 'required', path: [key] });
        continue;
      }
      const checked = check(a, raw);
      if (isError(checked)) issues.push({ message: checked.error, path: [key] });
      else out[key] = checked;
    }
    return issues.length ? { issues } : { value: out as T };
  };
  return { input: { '~standard': { version: 1, vendor: 'corvid', validate } }, parameters };
}

function jsonSchemaOf(a: ArgSpec): JSONSchema7 {
  switch (a.type) {
    case 'string':
      return {
        type: 'string',
        description: a.description,
        ...(a.min !== undefined ? { minLength: a.min } : {}),
        ...(a.max !== undefined ? { maxLength: a.max } : {}),
      };
    case 'integer':
      return { type: 'integer', description: a.description, minimum: a.min, maximum: a.max };
    case 'enum':
      return { type: 'string', enum: [...a.values], description: a.description };
    case 'string-array':
      return { type: 'array', items: { type: 'string', maxLength: a.itemMax }, maxItems: a.max, description: a.description };
    default: {
      const never: never = a;
      throw new Error(`unknown argument type ${JSON.stringify(never)}`);
    }
  }
}

function checkString(raw: unknown, min: number, max: number): string | { error: string } {
  if (typeof raw !== 'string') return { error: `expected a string, got ${Array.isArray(raw) ? 'an array' : typeof raw}` };
  const s = raw.trim();
  if (s.length < min) return { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` };
  if (s.length > max) return { error: `must be at most ${max} characters (got ${s.length})` };
  return s;
}

function check(a: ArgSpec, raw: unknown): unknown {
  switch (a.type) {
    case 'string':
      return checkString(raw, a.min ?? 0, a.max ?? Infinity);
    case 'integer':
      return typeof raw === 'number' && Number.isInteger(raw) && raw >= a.min && raw <= a.max
        ? raw
        : { error: `must be a whole number from ${a.min} to ${a.max} (got ${JSON.stringify(raw)})` };
    case 'enum':
      return typeof raw === 'string' && a.values.includes(raw)
        ? raw
        : { error: `must be one of ${a.values.map((v) => `"${v}"`).join(', ')} (got ${JSON.stringify(raw)})` };
    case 'string-array': {
      if (!Array.isArray(raw)) return { error: `expected an array of strings, got ${typeof raw}` };
      if (raw.length > a.max) return { error: `at most ${a.max} items (got ${raw.length})` };
      const items: string[] = [];
      for (const [i, item] of raw.entries()) {
        const s = checkString(item, 1, a.itemMax);
        if (typeof s !== 'string') return { error: `item ${i}: ${s.error}` };
        items.push(s);
      }
      return items;
    }
    default: {
      const never: never = a;
      return { error: `unknown argument type ${JSON.stringify(never)}` };
    }
  }
}

function isError(v: unknown): v is { error: string } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { error?: unknown }).error === 'string';
}
