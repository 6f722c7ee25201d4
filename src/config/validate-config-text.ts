import type { ConfigIssue } from '../errors/config-error.js';
import { checkConfigReferences, type ToolNameOptions } from './check-config-references.js';
import { configFileSchema } from './config-file-schema.js';
import type { CorvidConfig } from './corvid-config.js';
import { coercionFor, mapZodIssues } from './map-zod-issues.js';
import { normalizeConfig } from './normalize-config.js';
import {
  type ConfigPath,
  type ConfigSource,
  formatConfigPath,
  parseConfigSource,
  type RawIssue,
  setAtPath,
} from './parse-config-source.js';
import { SECRET_MASK } from './print-config.js';

/** Options for `validateConfigText`. */
export interface ValidateConfigTextOptions extends ToolNameOptions {
  /** File name used in issues. */
  file?: string;
  /** Variables for `${VAR}` interpolation. Default: none (every `${VAR}` without default is an issue). */
  env?: Record<string, string | undefined>;
  /**
   * Validate only these top-level sections (e.g. `['storage']`), for a command that uses part of
   * the config: the others are left out of the result except the agent names and
   * `defaults.agent`, and their `${VAR}`s need not be set. Default: every section.
   */
  sections?: readonly string[];
  /**
   * `'warning'`: an unset `${VAR}` (without default) is a warning, not an error, so the structure
   * of a config is checked without its secrets; it stays an error where the value is needed to
   * check the structure (a number, a boolean). Default `'error'` (what loading requires).
   */
  missingEnv?: 'error' | 'warning';
}

/** Outcome of validating a config: never throws. */
export interface ConfigValidation {
  ok: boolean;
  /** Every error found, sorted by position. Empty when `ok`. */
  issues: ConfigIssue[];
  /** Problems that do not stop loading (unknown tool names under `allowUnknownTools`). */
  warnings: ConfigIssue[];
  /** The normalised config, when `ok`. */
  config?: CorvidConfig;
}

/**
 * Validates config text completely: YAML syntax, interpolation, schema (unknown keys, types,
 * ranges) and cross-references, all reported together with file, line, column and path.
 * Synchronous and side-effect free; `loadConfig`/`validateConfig` add files and `.env` handling.
 */
export function validateConfigText(text: string, options: ValidateConfigTextOptions = {}): ConfigValidation {
  const sections = options.sections;
  const source = parseConfigSource(text, options.env ?? {}, {
    missingEnv: options.missingEnv,
    ...(sections ? { requireEnv: (path: ConfigPath) => isKept(path, sections) } : {}),
  });
  const secrets = secretValues(source.data);
  if (sections && source.data !== undefined) source.data = keepSections(source.data, sections);
  const finish = (errors: RawIssue[], warnings: RawIssue[] = []): ConfigValidation => ({
    ok: false,
    issues: toConfigIssues(errors, source, options.file, secrets),
    warnings: toConfigIssues(warnings, source, options.file, secrets),
  });
  if (source.data === undefined) return finish(source.issues);
  const data = source.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return finish([
      ...source.issues,
      { path: [], message: 'the config must be a mapping with sections such as models: and agents:', position: { line: 1, column: 1 } },
    ]);
  }

  let parsed = configFileSchema.safeParse(data);
  if (!parsed.success && coerceInterpolated(parsed.error.issues, data, source)) parsed = configFileSchema.safeParse(data);
  const schemaIssues = parsed.success ? [] : mapZodIssues(parsed.error.issues, data);
  const refs = checkConfigReferences(data, options);
  const failed = [...source.failedPaths];
  const afterFailure = (i: RawIssue): boolean => {
    const key = formatConfigPath(i.path);
    return !failed.some((f) => key === f || key.startsWith(`${f}.`) || key.startsWith(`${f}[`));
  };
  const errors = [...source.issues, ...[...schemaIssues, ...refs.errors].filter(afterFailure)];
  // A value the schema needs (a number, a boolean) cannot be checked without its variable.
  if (errors.length > 0) return finish(errors, [...source.warnings, ...refs.warnings]);
  if (!parsed.success) return finish(source.warnings, refs.warnings);
  return {
    ok: true,
    issues: [],
    warnings: toConfigIssues([...source.warnings, ...refs.warnings], source, options.file, secrets),
    config: normalizeConfig(parsed.data),
  };
}

/** Whether a path survives `keepSections`: inside a kept section, or `defaults.agent`. */
function isKept(path: ConfigPath, sections: readonly string[]): boolean {
  const top = path[0];
  if (top === undefined) return true;
  if (typeof top === 'string' && sections.includes(top)) return true;
  return top === 'defaults' && (path.length === 1 || path[1] === 'agent');
}

/**
 * The data of the kept sections, plus the agent names (as agents with every default) and
 * `defaults.agent`; `storage.embedder` only with `embedders`.
 */
function keepSections(data: unknown, sections: readonly string[]): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const all = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const s of sections) if (s in all) out[s] = all[s];
  const agents = all.agents;
  if (!sections.includes('agents') && typeof agents === 'object' && agents !== null && !Array.isArray(agents)) {
    out.agents = Object.fromEntries(Object.keys(agents).map((name) => [name, {}]));
  }
  const defaults = all.defaults as Record<string, unknown> | undefined;
  if (!sections.includes('defaults') && typeof defaults === 'object' && defaults !== null && defaults.agent !== undefined) {
    out.defaults = { agent: defaults.agent };
  }
  // `storage.embedder` names an entry of `embedders:`; without that section it is not used (nor checked).
  const storage = out.storage as Record<string, unknown> | undefined;
  if (!sections.includes('embedders') && typeof storage === 'object' && storage !== null && 'embedder' in storage) {
    const { embedder: _unused, ...rest } = storage;
    out.storage = rest;
  }
  return out;
}

/** Coerces interpolated unquoted scalars the schema wants as numbers/booleans; true if any changed. */
function coerceInterpolated(issues: Parameters<typeof mapZodIssues>[0], data: unknown, source: ConfigSource): boolean {
  let changed = false;
  for (const issue of issues) {
    const path = issue.path as Array<string | number>;
    if (!source.interpolatedPlain.has(formatConfigPath(path))) continue;
    const current = path.reduce<unknown>((o, k) => (o as Record<string | number, unknown> | undefined)?.[k], data);
    if (typeof current !== 'string') continue;
    const c = coercionFor(issue, current);
    if (c.ok) {
      setAtPath(data, path, c.value);
      changed = true;
    }
  }
  return changed;
}

/** API keys in the data (also when interpolated), so that no message can echo one. */
function secretValues(data: unknown): string[] {
  const models = (data as { models?: unknown } | undefined)?.models;
  if (typeof models !== 'object' || models === null) return [];
  return Object.values(models)
    .map((m) => (m as { api_key?: unknown } | null)?.api_key)
    .filter((k): k is string => typeof k === 'string' && k.length >= 6);
}

function toConfigIssues(raw: RawIssue[], source: ConfigSource, file: string | undefined, secrets: string[]): ConfigIssue[] {
  const seen = new Set<string>();
  const out: ConfigIssue[] = [];
  for (const r of raw) {
    const path = formatConfigPath(r.path);
    const id = `${path}\u0000${r.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const pos = r.position ?? source.position(r.path, r.at);
    const message = secrets.reduce((m, secret) => m.split(secret).join(SECRET_MASK), r.message);
    const issue: ConfigIssue = { path, message };
    if (file !== undefined) issue.file = file;
    if (pos) {
      issue.line = pos.line;
      issue.column = pos.column;
    }
    out.push(issue);
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
