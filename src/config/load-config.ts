import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import type { ToolNameOptions } from './check-config-references.js';
import type { CorvidConfig } from './corvid-config.js';
import { findConfigFile } from './find-config-file.js';
import { loadDotEnv } from './load-dot-env.js';
import { emptyConfig } from './normalize-config.js';
import { type ConfigValidation, validateConfigText } from './validate-config-text.js';

/** Options for `loadConfig` and `validateConfig`. */
export interface LoadConfigOptions extends ToolNameOptions {
  /** Config file, relative to `cwd`. Default: `findConfigFile(cwd)`. */
  path?: string;
  /** Working directory. Default `process.cwd()`. */
  cwd?: string;
  /** The real environment (wins over `.env` files). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Config text to use instead of reading `path` (`path` then only names it and locates its `.env`). */
  text?: string;
  /** Read `.env` files. Default true. */
  dotenv?: boolean;
  /** Copy `.env` values into `process.env` (never overriding what is set). Default false. */
  applyDotEnv?: boolean;
  /**
   * Read only these top-level sections (e.g. `['storage']`), plus the agent names and
   * `defaults.agent`: the others are not validated and their `${VAR}`s need not be set. For
   * commands that list stored data without running an agent. Default: every section.
   */
  sections?: readonly string[];
  /**
   * `'warning'`: an unset `${VAR}` without default is a warning (see `validateConfigText`), for
   * checking a config's structure without its secrets (`corvid validate`). Default `'error'`.
   */
  missingEnv?: 'error' | 'warning';
}

/** A loaded, validated config. */
export interface LoadedConfig {
  /** The normalised config (camelCase, interpolated). Empty when no file was found. */
  config: CorvidConfig;
  /** Absolute path of the file, when one was read. */
  path?: string;
  /** The environment used for interpolation: real environment over `.env` files. */
  env: Record<string, string>;
  /** `.env` files that were read, highest precedence first. */
  envFiles: string[];
  /** Non-fatal problems (unknown tool names under `allowUnknownTools`). */
  warnings: ConfigIssue[];
}

/** Result of `validateConfig`: issues instead of an exception. */
export interface ConfigFileValidation extends ConfigValidation {
  /** Absolute path of the file checked, when there was one. */
  path?: string;
}

interface ReadResult {
  path?: string;
  validation?: ConfigValidation;
  env: Record<string, string>;
  envFiles: string[];
}

/** How a config file is named in issues: relative to `cwd` when inside it, else absolute. */
export function displayConfigPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

async function readConfig(options: LoadConfigOptions): Promise<ReadResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const path = options.path !== undefined ? resolve(cwd, options.path) : options.text === undefined ? findConfigFile(cwd) : undefined;
  let text = options.text;
  if (text === undefined && path !== undefined) {
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const message = code === 'ENOENT' ? 'config file not found' : `cannot read the config file (${code ?? (err as Error).message})`;
      const issue: ConfigIssue = { file: displayConfigPath(cwd, path), path: '', message };
      return { path, validation: { ok: false, issues: [issue], warnings: [] }, env: {}, envFiles: [] };
    }
  }
  const real = options.env ?? process.env;
  const dot =
    options.dotenv === false
      ? { env: Object.fromEntries(Object.entries(real).filter((e): e is [string, string] => e[1] !== undefined)), files: [] }
      : await loadDotEnv({ cwd, configDir: path ? dirname(path) : undefined, env: real, apply: options.applyDotEnv });
  if (text === undefined) return { env: dot.env, envFiles: dot.files };
  const validation = validateConfigText(text, {
    file: path ? displayConfigPath(cwd, path) : undefined,
    env: dot.env,
    knownTools: options.knownTools,
    allowUnknownTools: options.allowUnknownTools,
    sections: options.sections,
    missingEnv: options.missingEnv,
  });
  return { path, validation, env: dot.env, envFiles: dot.files };
}

function errorFor(issues: ConfigIssue[], path: string | undefined): ConfigError {
  const n = issues.length;
  return new ConfigError(`Invalid configuration${path ? ` in ${path}` : ''}: ${n} problem${n === 1 ? '' : 's'}`, { issues });
}

/**
 * Loads and validates `corvid.yaml` (or the given file or text), with `${VAR}` interpolation
 * from the environment and `.env` files. Without a file it returns an empty config.
 * @throws ConfigError listing every problem, each with file, line, column and path.
 * @example
 * const { config } = await loadConfig({ path: 'corvid.yaml', knownTools: ['add'] });
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const r = await readConfig(options);
  if (!r.validation) return { config: emptyConfig(), env: r.env, envFiles: r.envFiles, warnings: [] };
  const v = r.validation;
  if (!v.ok || !v.config) throw errorFor(v.issues, r.path);
  const out: LoadedConfig = { config: v.config, env: r.env, envFiles: r.envFiles, warnings: v.warnings };
  if (r.path) out.path = r.path;
  return out;
}

/**
 * Validates a config file (or text) without throwing, for `corvid validate` and editors.
 * Unlike `loadConfig`, a missing config file is an issue. Tool names must be in `knownTools`
 * unless `allowUnknownTools` is set (then they are warnings): code-defined tools are unknown here.
 */
export async function validateConfig(options: LoadConfigOptions = {}): Promise<ConfigFileValidation> {
  const r = await readConfig(options);
  if (!r.validation) {
    const cwd = resolve(options.cwd ?? process.cwd());
    return { ok: false, issues: [{ path: '', message: `no corvid.yaml or corvid.yml in ${cwd}` }], warnings: [] };
  }
  return r.path ? { ...r.validation, path: r.path } : r.validation;
}
