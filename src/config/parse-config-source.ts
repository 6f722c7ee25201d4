import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLError } from 'yaml';

import { hasInterpolation, interpolateEnv } from './interpolate-env.js';

/** A location inside the config: object keys and array indexes. */
export type ConfigPath = ReadonlyArray<string | number>;

/** 1-based source position. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** A problem before it is attached to a file: where (path, or an explicit position) and what. */
export interface RawIssue {
  path: ConfigPath;
  message: string;
  /** Report at the key (`foo:`) rather than at the value. */
  at?: 'key' | 'value';
  position?: SourcePosition;
}

/** YAML text turned into plain data, with the source position of every key and value. */
export interface ConfigSource {
  /** Plain data; `undefined` when the YAML has syntax errors. */
  data: unknown;
  /** Syntax errors and interpolation problems. */
  issues: RawIssue[];
  /** Unset variables under `missingEnv: 'warning'` (their scalars keep the `${VAR}` text). */
  warnings: RawIssue[];
  /** Paths whose value could not be interpolated; other issues there are suppressed. */
  failedPaths: Set<string>;
  /** Paths of unquoted scalars that were interpolated (numbers/booleans may be coerced there). */
  interpolatedPlain: Set<string>;
  position(path: ConfigPath, at?: 'key' | 'value'): SourcePosition | undefined;
}

const SIMPLE_KEY = /^[A-Za-z0-9_.-]+$/;

/** Formats a path as `agents.helper.tools[1]` (unusual keys are quoted: `headers["X Y"]`). */
export function formatConfigPath(path: ConfigPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (SIMPLE_KEY.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Options for `parseConfigSource`. */
export interface ParseConfigSourceOptions {
  /** An unset variable is an issue only at the paths this accepts. Default: everywhere. */
  requireEnv?: (path: ConfigPath) => boolean;
  /**
   * `'warning'`: an unset variable (without default) is a warning and its scalar keeps the
   * `${VAR}` text, so the structure can be checked without the secrets. Default `'error'`.
   */
  missingEnv?: 'error' | 'warning';
}

/**
 * Parses config YAML keeping source ranges, interpolates `${VAR}` per scalar on the AST (never
 * in keys, never on raw text), and records where every key and value came from. An empty value
 * (`key:` or `key: null`, or an unquoted `${VAR:-}` that comes out empty) counts as absent,
 * except for an entry of `agents:` or `models:`, which is an empty mapping. With `requireEnv`, an
 * unset variable is an issue only at the paths it accepts.
 */
export function parseConfigSource(
  text: string,
  env: Record<string, string | undefined>,
  options: ParseConfigSourceOptions = {},
): ConfigSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const valuePos = new Map<string, SourcePosition>();
  const keyPos = new Map<string, SourcePosition>();
  const issues: RawIssue[] = [];
  const warnings: RawIssue[] = [];
  const failedPaths = new Set<string>();
  const interpolatedPlain = new Set<string>();
  const pos = (offset: number): SourcePosition => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };

  const position = (path: ConfigPath, at: 'key' | 'value' = 'value'): SourcePosition | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const key = formatConfigPath(path.slice(0, n));
      // Exact match: the requested kind first. An ancestor: its key line reads best (`fast:`).
      const found = n === path.length && at === 'value' ? (valuePos.get(key) ?? keyPos.get(key)) : (keyPos.get(key) ?? valuePos.get(key));
      if (found) return found;
    }
    return undefined;
  };

  if (doc.errors.length > 0) {
    issues.push(...syntaxIssues(doc.errors, text, pos));
    return { data: undefined, issues, warnings, failedPaths, interpolatedPlain, position };
  }

  const convert = (node: unknown, path: ConfigPath, depth: number): unknown => {
    const key = formatConfigPath(path);
    const n = node as Node | null;
    if (n?.range && !valuePos.has(key)) valuePos.set(key, pos(n.range[0]));
    if (n === null || n === undefined) return null;
    if (depth > 64) {
      issues.push({ path, message: 'nesting is too deep (recursive alias?)' });
      return null;
    }
    if (isAlias(n)) {
      const target = n.resolve(doc as Document);
      if (!target) {
        issues.push({ path, message: `unresolved alias *${n.source}` });
        return null;
      }
      return convert(target, path, depth + 1);
    }
    if (isScalar(n)) {
      if (typeof n.value !== 'string' || !hasInterpolation(n.value)) return n.value;
      const r = interpolateEnv(n.value, env);
      // Outside the paths a caller needs, an unset variable is not a problem (the value reads as empty).
      if (options.requireEnv && !options.requireEnv(path)) r.missing = [];
      const missing = r.missing.map((name) => ({
        path,
        message: `environment variable ${name} is not set (give a default with \${${name}:-value}, or set it in the environment or a .env file)`,
      }));
      if (options.missingEnv === 'warning' && missing.length > 0 && r.errors.length === 0) {
        warnings.push(...missing);
        failedPaths.add(key);
        return n.value;
      }
      issues.push(...missing);
      for (const message of r.errors) issues.push({ path, message });
      if (r.missing.length > 0 || r.errors.length > 0) failedPaths.add(key);
      if (n.type === 'PLAIN') {
        if (r.value === '') return null;
        interpolatedPlain.add(key);
      }
      return r.value;
    }
    if (isSeq(n)) return n.items.map((item, i) => convert(item, [...path, i], depth + 1));
    if (isMap(n)) {
      const out: Record<string, unknown> = {};
      const merges: unknown[] = [];
      for (const pair of n.items) {
        const k = pair.key;
        if (isScalar(k) && (typeof k.value === 'symbol' || k.value === '<<')) {
          merges.push(pair.value);
          continue;
        }
        if (!isScalar(k) || k.value === null || typeof k.value === 'object') {
          const at = (k as Node | null)?.range?.[0];
          issues.push({ path, message: 'keys must be plain strings', position: at === undefined ? undefined : pos(at) });
          continue;
        }
        const name = String(k.value);
        const childPath = [...path, name];
        if (k.range) keyPos.set(formatConfigPath(childPath), pos(k.range[0]));
        const value = convert(pair.value, childPath, depth + 1);
        // `agents: { helper: }` is an agent with every default, not a missing one.
        if (value === null && path.length === 1 && (path[0] === 'agents' || path[0] === 'models')) out[name] = {};
        else if (value !== null) out[name] = value;
      }
      for (const m of merges) mergeInto(out, m, path, depth);
      return out;
    }
    return null;
  };

  const mergeInto = (out: Record<string, unknown>, source: unknown, path: ConfigPath, depth: number): void => {
    const sources = isSeq(source) ? source.items : [source];
    for (const s of sources) {
      const resolved = isAlias(s) ? s.resolve(doc as Document) : s;
      if (!isMap(resolved)) {
        issues.push({ path, message: 'a merge key (<<) needs a mapping or an alias to one' });
        continue;
      }
      const merged = convert(resolved, [...path, '<<'], depth + 1) as Record<string, unknown>;
      for (const [k, v] of Object.entries(merged)) {
        if (k in out) continue;
        out[k] = v;
        const from = formatConfigPath([...path, '<<', k]);
        const to = formatConfigPath([...path, k]);
        const kp = keyPos.get(from);
        if (kp && !keyPos.has(to)) keyPos.set(to, kp);
      }
    }
  };

  const data = doc.contents === null ? {} : convert(doc.contents, [], 0);
  return { data: data === null ? {} : data, issues, warnings, failedPaths, interpolatedPlain, position };
}

/**
 * Syntax errors as issues. Token text is stripped from messages (it could be a secret), and the
 * "Unexpected … token in YAML stream" errors that follow a first error (and further errors on
 * the same line) are dropped: they are
 * the parser losing its place, not further problems.
 */
function syntaxIssues(errors: ReadonlyArray<YAMLError>, text: string, pos: (offset: number) => SourcePosition): RawIssue[] {
  const out: RawIssue[] = [];
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  for (const e of sorted) {
    const at = pos(e.pos[0]);
    const cascade = /token in YAML stream/.test(e.message) || out.at(-1)?.position?.line === at.line;
    if (cascade && out.length > 0) continue;
    let message = `YAML syntax error: ${e.message.replace(/: ".*"$/s, '')}`;
    const line = text.split('\n')[at.line - 1] ?? '';
    if (e.code === 'UNEXPECTED_TOKEN' && /[{[].*\$\{/.test(line)) message += ' (inside { } or [ ], quote interpolations: "${VAR}")';
    out.push({ path: [], message, position: at });
  }
  return out;
}

/** Sets a value at a path in plain data (used to coerce interpolated numbers and booleans). */
export function setAtPath(data: unknown, path: ConfigPath, value: unknown): void {
  let cur = data as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    cur = cur?.[path[i]] as Record<string | number, unknown>;
    if (typeof cur !== 'object' || cur === null) return;
  }
  if (cur && typeof cur === 'object') cur[path[path.length - 1]] = value;
}
