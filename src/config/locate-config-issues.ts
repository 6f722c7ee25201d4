import { readFileSync } from 'node:fs';

import { ConfigError } from '../errors/config-error.js';
import { type ConfigPath, parseConfigSource } from './parse-config-source.js';

/** Parses a dotted config path as written in issues (`agents.a.tools[1]`, `models["a:b"]`). */
export function parseConfigPath(path: string): ConfigPath {
  const out: Array<string | number> = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(`"${m[3]}"`) as string);
  }
  return out;
}

/**
 * Adds line and column to the issues of a ConfigError raised after validation (while importing
 * tool modules or building agents), by locating each issue's path in the config file.
 * Anything else is returned unchanged.
 */
export function locateConfigIssues(err: unknown, file: string, env: Record<string, string | undefined>): unknown {
  if (!(err instanceof ConfigError) || err.issues.length === 0 || err.issues.every((i) => i.line !== undefined)) return err;
  let source;
  try {
    source = parseConfigSource(readFileSync(file, 'utf8'), env);
  } catch {
    return err;
  }
  const issues = err.issues.map((issue) => {
    if (issue.line !== undefined || !issue.path) return issue;
    const pos = source.position(parseConfigPath(issue.path));
    return pos ? { ...issue, line: pos.line, column: pos.column } : issue;
  });
  return new ConfigError(err.message.split('\n')[0], { issues, cause: err.cause });
}
