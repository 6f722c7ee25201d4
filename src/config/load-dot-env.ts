import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';

import { ConfigError } from '../errors/config-error.js';

/** Options for `loadDotEnv`. */
export interface LoadDotEnvOptions {
  /** Working directory; its `.env` is read first. Default `process.cwd()`. */
  cwd?: string;
  /** Directory of the config file; its `.env` is read too (lower precedence than the working directory's). */
  configDir?: string;
  /** The real environment, which always wins. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Also copy `.env` values into `process.env` (never overriding variables already set). Default false. */
  apply?: boolean;
}

/** The merged environment and where it came from. */
export interface DotEnvResult {
  /** Real environment over the working directory's `.env` over the config directory's `.env`. */
  env: Record<string, string>;
  /** Only the values that came from `.env` files (after precedence). */
  fromFiles: Record<string, string>;
  /** `.env` files that were read, highest precedence first. */
  files: string[];
}

async function readEnvFile(file: string): Promise<Record<string, string> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    throw new ConfigError(`Cannot read ${file}: ${(err as Error).message}`, {
      issues: [{ file, path: '', message: `cannot read: ${code ?? 'error'}` }],
      cause: err,
    });
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parseEnv(text))) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Reads `.env` from the working directory and from the config file's directory (Node's
 * `util.parseEnv` syntax) and merges them under the real environment: real environment wins,
 * then the working directory's `.env`, then the config directory's. `process.env` is left
 * alone unless `apply: true`.
 */
export async function loadDotEnv(options: LoadDotEnvOptions = {}): Promise<DotEnvResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const dirs = [cwd];
  if (options.configDir && resolve(options.configDir) !== cwd) dirs.push(resolve(options.configDir));
  const real = options.env ?? process.env;
  const files: string[] = [];
  const fromFiles: Record<string, string> = {};
  for (const dir of dirs) {
    const file = join(dir, '.env');
    const values = await readEnvFile(file);
    if (!values) continue;
    files.push(file);
    for (const [k, v] of Object.entries(values)) if (!(k in fromFiles) && real[k] === undefined) fromFiles[k] = v;
  }
  const env: Record<string, string> = { ...fromFiles };
  for (const [k, v] of Object.entries(real)) if (v !== undefined) env[k] = v;
  if (options.apply) for (const [k, v] of Object.entries(fromFiles)) if (process.env[k] === undefined) process.env[k] = v;
  return { env, fromFiles, files };
}
