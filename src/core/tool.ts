import type { JSONSchema7, LanguageModelV3FunctionTool } from '@ai-sdk/provider';

import { ValidationError } from '../errors/validation-error.js';
import type { RequireApproval, StandardSchemaLike, Tool, ToolContext } from '../types/tool.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Options for `tool()`. Give `input` (a zod or Standard Schema) or `parameters` (raw JSON Schema), or both. */
export interface ToolDefinition<Input, Output> {
  name: string;
  description: string;
  /** zod (or any Standard Schema) for the arguments; they are validated before `execute`. */
  input?: StandardSchemaLike<Input>;
  /** Raw JSON Schema for the arguments (MCP tools, hand-written schemas). */
  parameters?: JSONSchema7;
  /** Per-call time limit in milliseconds. */
  timeoutMs?: number;
  /**
   * Pause the run for a human's approval before each call: `true`, a prompt text for the
   * approver (`{field}` is filled from the input, e.g. `'Delete {path}?'`), or a function of the input.
   */
  requireApproval?: RequireApproval<Input>;
  /** What a call would do (e.g. a diff), shown to the approver under the prompt when the call needs approval. */
  preview?: (input: Input) => string | undefined | Promise<string | undefined>;
  execute: (input: Input, context: ToolContext) => Output | Promise<Output>;
}

/**
 * Defines a tool.
 * @example
 * const add = tool({ name: 'add', description: 'Add two numbers',
 *   input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a default that accepts every tool's input type (`unknown` would reject them)
export function tool<Input = any, Output = unknown>(definition: ToolDefinition<Input, Output>): Tool<Input, Output> {
  if (typeof definition?.name !== 'string' || !TOOL_NAME.test(definition.name)) {
    throw new ValidationError(`Invalid tool name ${JSON.stringify(definition?.name)}: use 1-64 letters, digits, "_" or "-"`);
  }
  if (typeof definition.execute !== 'function') {
    throw new ValidationError(`Tool "${definition.name}" needs an execute function`);
  }
  if (definition.input && !definition.input['~standard']) {
    throw new ValidationError(`Tool "${definition.name}": input must be a zod (or Standard Schema) schema`);
  }
  if (definition.input && !definition.parameters && !hasZodJsonSchema(definition.input)) {
    throw new ValidationError(
      `Tool "${definition.name}": its input schema cannot be converted to JSON Schema; pass "parameters" with a JSON Schema as well`,
    );
  }
  return {
    kind: 'tool',
    name: definition.name,
    description: definition.description ?? '',
    schema: definition.input,
    jsonSchema: definition.parameters,
    timeoutMs: definition.timeoutMs,
    ...(definition.requireApproval !== undefined && definition.requireApproval !== false
      ? { requireApproval: definition.requireApproval }
      : {}),
    ...(definition.preview !== undefined ? { preview: definition.preview } : {}),
    execute: definition.execute,
  };
}

function hasZodJsonSchema(schema: unknown): schema is { toJSONSchema: (p?: unknown) => JSONSchema7 } {
  return typeof (schema as { toJSONSchema?: unknown }).toJSONSchema === 'function';
}

const specCache = new WeakMap<Tool, LanguageModelV3FunctionTool>();

/** The provider-spec definition of a tool; its JSON Schema is computed once per tool and cached. */
export function toolSpec(t: Tool): LanguageModelV3FunctionTool {
  let spec = specCache.get(t);
  if (spec) return spec;
  spec = { type: 'function', name: t.name, description: t.description, inputSchema: toolJsonSchema(t) };
  specCache.set(t, spec);
  return spec;
}

function toolJsonSchema(t: Tool): JSONSchema7 {
  if (t.jsonSchema) return t.jsonSchema;
  if (t.schema && hasZodJsonSchema(t.schema)) {
    const schema = { ...t.schema.toJSONSchema({ io: 'input', unrepresentable: 'any' }) } as Record<string, unknown>;
    delete schema.$schema;
    return schema as JSONSchema7;
  }
  return { type: 'object', properties: {}, additionalProperties: true };
}

/** Result of validating tool arguments. */
export type ToolInputCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** Validates arguments against the tool's schema; raw JSON Schema tools get a structural check. */
export async function validateToolInput(t: Tool, input: unknown): Promise<ToolInputCheck> {
  if (t.schema) {
    let result = t.schema['~standard'].validate(input) as
      | { value: unknown; issues?: undefined }
      | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };
    if (result instanceof Promise) result = await result;
    if (!result.issues) return { ok: true, value: (result as { value: unknown }).value };
    return { ok: false, message: formatIssues(result.issues) };
  }
  if (t.jsonSchema) {
    const problem = checkJsonSchema(t.jsonSchema, input, '');
    return problem ? { ok: false, message: problem } : { ok: true, value: input };
  }
  return { ok: true, value: input };
}

function formatIssues(issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }>): string {
  return issues
    .map((i) => {
      const path = (i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

/** A small structural JSON Schema check: type, required, properties, items, enum. */
function checkJsonSchema(schema: JSONSchema7, value: unknown, at: string): string | undefined {
  const where = at || 'arguments';
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    return `${where}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  }
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types && !types.some((t) => matchesType(t, value))) {
    return `${where}: expected ${types.join(' or ')}, got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (obj[key] === undefined) return `${at ? `${at}.` : ''}${key}: required`;
    }
    if (schema.properties) {
      for (const [key, sub] of Object.entries(schema.properties)) {
        if (obj[key] === undefined || typeof sub === 'boolean') continue;
        const problem = checkJsonSchema(sub, obj[key], at ? `${at}.${key}` : key);
        if (problem) return problem;
      }
      if (schema.additionalProperties === false) {
        const extra = Object.keys(obj).find((k) => !(k in schema.properties!));
        if (extra) return `${at ? `${at}.` : ''}${extra}: unknown property`;
      }
    }
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkJsonSchema(schema.items, value[i], `${where}[${i}]`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    case 'number':
    case 'string':
    case 'boolean':
      return typeof value === type;
    default:
      return true;
  }
}
