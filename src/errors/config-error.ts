import { CorvidError, type CorvidErrorCode } from './corvid-error.js';

/** One problem found in a configuration file. */
export interface ConfigIssue {
  /** Path of the file, when the config came from one. */
  file?: string;
  /** 1-based line and column of the offending node, when known. */
  line?: number;
  column?: number;
  /** Dotted path inside the config, e.g. `agents.helper.model`. */
  path: string;
  message: string;
}

/** Formats one issue as `file:line:col  path: message`. */
export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.file
    ? `${issue.file}${issue.line ? `:${issue.line}${issue.column ? `:${issue.column}` : ''}` : ''}`
    : issue.line
      ? `line ${issue.line}`
      : '';
  const path = issue.path ? `${issue.path}: ` : '';
  return `${where ? `${where}  ` : ''}${path}${issue.message}`;
}

const MARKER = Symbol.for('corvid.error.ConfigError');

/** The configuration is invalid; `issues` lists every problem found, not just the first. */
export class ConfigError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `ConfigError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is ConfigError {
    return ConfigError.hasMarker(error, MARKER);
  }

  readonly issues: ConfigIssue[];

  constructor(message: string, options: { issues?: ConfigIssue[]; cause?: unknown; code?: CorvidErrorCode } = {}) {
    const issues = options.issues ?? [];
    const detail = issues.length > 0 ? `\n${issues.map((i) => `  ${formatConfigIssue(i)}`).join('\n')}` : '';
    super(`${message}${detail}`, { code: options.code ?? 'config_invalid', cause: options.cause });
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
