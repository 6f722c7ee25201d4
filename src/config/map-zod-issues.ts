import { z } from 'zod';

import { AGENT_TYPE_KEYS, AGENT_TYPES, type AgentTypeName, configFileSchema, RESERVED_SECTIONS } from './config-file-schema.js';
import type { ConfigPath, RawIssue } from './parse-config-source.js';
import { toolKindKeys } from './tool-kinds/index.js';

type ZodIssue = z.core.$ZodIssue;

function unwrap(s: z.ZodType | undefined): z.ZodType | undefined {
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  if (s instanceof z.ZodUnion) s = (s.options as z.ZodType[]).find((o) => unwrap(o) instanceof z.ZodObject) ?? s;
  return s;
}

/** The keys allowed at a path of the file schema, when the path is an object. */
export function allowedKeysAt(path: ConfigPath): string[] | undefined {
  let s: z.ZodType | undefined = configFileSchema;
  for (const seg of path) {
    s = unwrap(s);
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(seg)];
    else if (s instanceof z.ZodRecord) s = s.valueType as z.ZodType;
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else return undefined;
  }
  s = unwrap(s);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : undefined;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/** The agent type of the entry at `agents.<name>`, when `path` is one and its type is valid. */
function agentTypeAt(path: ConfigPath, data: unknown): AgentTypeName | undefined {
  if (path.length !== 2 || path[0] !== 'agents') return undefined;
  const entry = (data as { agents?: Record<string, { type?: unknown } | null> } | undefined)?.agents?.[String(path[1])];
  const type = entry?.type ?? 'llm';
  return (AGENT_TYPES as readonly unknown[]).includes(type) ? (type as AgentTypeName) : undefined;
}

/** The keys of the built-in tool family named by `type:` of the entry at `tools.<id>`, when `path` is one. */
function toolEntryKeysAt(path: ConfigPath, data: unknown): string[] | undefined {
  if (path.length !== 2 || path[0] !== 'tools') return undefined;
  const entry = (data as { tools?: Record<string, { type?: unknown } | null> } | undefined)?.tools?.[String(path[1])];
  return entry?.type === undefined ? undefined : toolKindKeys(entry.type);
}

function unknownKeyMessage(parent: ConfigPath, key: string, data: unknown): string {
  if (parent.length === 0 && (RESERVED_SECTIONS as readonly string[]).includes(key)) {
    return `the "${key}" section is not supported yet (reserved for a later version of the config format)`;
  }
  const type = agentTypeAt(parent, data);
  const allowed = (type ? [...AGENT_TYPE_KEYS[type]] : (toolEntryKeysAt(parent, data) ?? allowedKeysAt(parent))) ?? [];
  const snake = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
  const best =
    allowed.find((k) => k === snake) ?? allowed.find((k) => distance(k, key.toLowerCase()) <= Math.max(1, Math.floor(k.length / 4)));
  if (best) return `unknown key "${key}" (did you mean "${best}"?)`;
  return `unknown key "${key}"${allowed.length ? `; allowed keys: ${allowed.join(', ')}` : ''}`;
}

function cleanMessage(message: string): string {
  const m = message.replace(/^Invalid input: /, '');
  return m.charAt(0).toLowerCase() + m.slice(1);
}

/** Turns zod issues of the file schema into config issues: one per unknown key, readable messages. */
export function mapZodIssues(issues: readonly ZodIssue[], data?: unknown): RawIssue[] {
  const out: RawIssue[] = [];
  for (const issue of issues) {
    const path = issue.path as Array<string | number>;
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) out.push({ path: [...path, key], at: 'key', message: unknownKeyMessage(path, key, data) });
        break;
      case 'invalid_key':
        out.push({ path, at: 'key', message: `invalid name "${String(path.at(-1))}": ${issue.issues[0]?.message ?? 'not allowed here'}` });
        break;
      case 'invalid_type':
        if (/received undefined$/.test(issue.message)) out.push({ path, at: 'key', message: `"${String(path.at(-1))}" is required` });
        else out.push({ path, message: cleanMessage(issue.message) });
        break;
      default:
        out.push({ path, message: cleanMessage(issue.message) });
    }
  }
  return out;
}

/**
 * For issues caused by an interpolated unquoted scalar holding a number or boolean as text
 * (`max_steps: ${STEPS}`), the coerced value; the schema decides, so `api_key: ${KEY}` stays a string.
 */
export function coercionFor(issue: ZodIssue, text: string): { ok: true; value: number | boolean } | { ok: false } {
  const wants =
    issue.code === 'invalid_type'
      ? issue.expected
      : issue.code === 'invalid_value' && issue.values.every((v) => typeof v === 'number')
        ? 'number'
        : undefined;
  if ((wants === 'number' || wants === 'int') && text.trim() !== '' && Number.isFinite(Number(text)))
    return { ok: true, value: Number(text) };
  if (wants === 'boolean' && (text === 'true' || text === 'false')) return { ok: true, value: text === 'true' };
  return { ok: false };
}
