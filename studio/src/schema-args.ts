/** The fields of a form generated from a tool's JSON Schema, and the arguments object its values make. */
import type { JsonSchema } from './api-types.js';

/** One field of the form. `json`: any other type, edited as JSON text. */
export interface SchemaField {
  name: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  required: boolean;
  description?: string;
  options?: string[];
  initial: string;
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** The fields of an object schema (one `json` field for the whole value when it is not an object with properties). */
export function schemaFields(schema: JsonSchema | undefined): SchemaField[] {
  if (!schema?.properties) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => {
    const type = typeOf(prop);
    const kind: SchemaField['kind'] = prop.enum
      ? 'enum'
      : type === 'string' || type === 'number' || type === 'integer' || type === 'boolean'
        ? type
        : 'json';
    const initial = prop.default === undefined ? '' : kind === 'json' ? JSON.stringify(prop.default) : String(prop.default);
    return { name, kind, required: required.has(name), description: prop.description, options: prop.enum?.map(String), initial };
  });
}

/** The arguments of the form's values; a message naming the field when one is not valid. */
export function argumentsOf(
  fields: readonly SchemaField[],
  values: Readonly<Record<string, string>>,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name] ?? field.initial;
    if (raw === '' && field.kind !== 'boolean') {
      if (field.required) return { ok: false, error: `${field.name} is required` };
      continue;
    }
    switch (field.kind) {
      case 'string':
      case 'enum':
        out[field.name] = raw;
        break;
      case 'boolean':
        if (raw !== '' || field.required) out[field.name] = raw === 'true';
        break;
      case 'number':
      case 'integer': {
        const n = Number(raw);
        if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n)))
          return { ok: false, error: `${field.name} must be ${field.kind === 'integer' ? 'an integer' : 'a number'}` };
        out[field.name] = n;
        break;
      }
      case 'json':
        try {
          out[field.name] = JSON.parse(raw);
        } catch {
          return { ok: false, error: `${field.name} must be JSON` };
        }
        break;
    }
  }
  return { ok: true, value: out };
}
