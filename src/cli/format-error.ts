import type { Colors } from './colors.js';

/** Loosely, anything thrown. */
interface ErrorLike {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  cause?: unknown;
  code?: unknown;
}

const CORVID_MARKER = Symbol.for('corvid.error');

/** True for Corvid's own errors (their messages are written for people). */
export function isCorvidError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[CORVID_MARKER] === true;
}

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const m = (error as ErrorLike).message;
    if (typeof m === 'string' && m.length > 0) return m;
  }
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * The text printed on stderr for an error: one readable message (Corvid errors carry their own
 * detail, e.g. every config issue with file:line), and with `debug` the stack and the cause chain.
 */
export function formatError(error: unknown, options: { debug: boolean; colors: Colors }): string {
  const { colors: c, debug } = options;
  const corvid = isCorvidError(error);
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const label = corvid || typeof e.name !== 'string' || e.name === 'Error' ? 'error' : `error (${e.name})`;
  const lines = [`${c.red(c.bold(`${label}:`))} ${messageOf(error)}`];
  if (debug) {
    let current: unknown = error;
    let depth = 0;
    while (current !== undefined && current !== null && depth < 8) {
      const stack = (current as ErrorLike).stack;
      if (depth > 0) lines.push(c.dim(`caused by: ${typeof stack === 'string' ? '' : messageOf(current)}`));
      if (typeof stack === 'string') lines.push(c.dim(stack));
      current = (current as ErrorLike).cause;
      depth++;
    }
  } else if (!corvid) {
    lines.push(c.dim('(run with --debug for the stack trace)'));
  }
  return `${lines.join('\n')}\n`;
}
