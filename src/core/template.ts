import { TemplateError } from '../errors/template-error.js';
import type { KeyValueState, RunState } from '../types/run-state.js';

/** The scopes a placeholder can read. */
export type TemplateScope = 'state' | 'user' | 'app' | 'output';

/** One `{scope.key.sub?}` placeholder. */
export interface Placeholder {
  /** As written between the braces, without `?`: `state.topic`. */
  key: string;
  scope: TemplateScope | 'bare';
  name: string;
  /** Further keys into an object value: `{state.order.id}` → `['id']`. */
  sub: string[];
  optional: boolean;
}

/** A parsed template: literal text and placeholders, alternating. */
export interface CompiledTemplate {
  parts: Array<string | Placeholder>;
  placeholders: Placeholder[];
}

const SCOPED = /\{(\{)?(state|user|app|output)\.([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)(\?)?\}(\})?/g;

/**
 * Parses `{state.x}`, `{user.x}`, `{app.x}`, `{output.x}` (optional with `?`: `{state.x?}`) and,
 * when `bare` lists them, plain names such as `{input}` or `{previous}`. Other braces are text;
 * `{{state.x}}` is the literal `{state.x}`. Returns `undefined` when there is no placeholder,
 * so plain instructions cost nothing per run.
 */
export function compileTemplate(text: string, bare: readonly string[] = []): CompiledTemplate | undefined {
  const re = bare.length > 0 ? new RegExp(`${SCOPED.source}|\\{(\\{)?(${bare.join('|')})(\\?)?\\}(\\})?`, 'g') : SCOPED;
  re.lastIndex = 0;
  const parts: Array<string | Placeholder> = [];
  const placeholders: Placeholder[] = [];
  let last = 0;
  let literal = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const scoped = m[2] !== undefined;
    const open = scoped ? m[1] : m[6];
    const close = scoped ? m[5] : m[9];
    literal += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (open && close) {
      // `{{state.x}}` → `{state.x}`
      literal += m[0].slice(1, -1);
      continue;
    }
    if (open) literal += '{';
    let p: Placeholder;
    if (scoped) {
      const [name, ...sub] = m[3].split('.');
      p = { key: `${m[2]}.${m[3]}`, scope: m[2] as TemplateScope, name, sub, optional: m[4] === '?' };
    } else {
      p = { key: m[7], scope: 'bare', name: m[7], sub: [], optional: m[8] === '?' };
    }
    if (literal) parts.push(literal);
    literal = close ? '}' : '';
    parts.push(p);
    placeholders.push(p);
  }
  if (placeholders.length === 0) return undefined;
  literal += text.slice(last);
  if (literal) parts.push(literal);
  return { parts, placeholders };
}

function scopeOf(state: RunState, scope: TemplateScope): KeyValueState {
  switch (scope) {
    case 'state':
      return state.session;
    case 'user':
      return state.user;
    case 'app':
      return state.app;
    case 'output':
      return state.outputs;
  }
}

function format(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Fills a template from the run state (and `bare` values such as `input`). A missing required
 * value is a `TemplateError` naming the agent and the key.
 */
export function renderTemplate(
  template: CompiledTemplate,
  state: RunState,
  agent: string,
  bare?: Record<string, string | undefined>,
  where?: string,
): string {
  let out = '';
  for (const part of template.parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    let value: unknown = part.scope === 'bare' ? bare?.[part.name] : scopeOf(state, part.scope).get(part.name);
    for (const k of part.sub) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[k] : undefined;
    if (value === undefined || value === null) {
      if (part.optional) continue;
      throw new TemplateError({ agent, key: part.key, where });
    }
    out += format(value);
  }
  return out;
}

/** Every `{output.<name>}` a text refers to (for config validation). */
export function outputReferences(text: string): Array<{ name: string; optional: boolean }> {
  return (compileTemplate(text)?.placeholders ?? [])
    .filter((p) => p.scope === 'output')
    .map((p) => ({ name: p.name, optional: p.optional }));
}
