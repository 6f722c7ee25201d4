import { CorvidError } from './corvid-error.js';

/** Which limit of a run was exceeded. */
export type RunLimitName = 'max_depth' | 'max_total_steps' | 'max_total_tokens' | 'max_duration_ms' | 'max_iterations';

const MARKER = Symbol.for('corvid.error.LimitExceededError');

/**
 * A run went past one of its limits: nesting depth, a loop's iteration cap, or a budget of the
 * whole run tree (model steps, tokens, wall time). The whole run stops; `agent` and `path` name
 * where it happened, `limit` and `value` which limit it was.
 */
export class LimitExceededError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `LimitExceededError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is LimitExceededError {
    return LimitExceededError.hasMarker(error, MARKER);
  }

  readonly limit: RunLimitName;
  /** The configured limit. */
  readonly value: number;
  /** How much was used when the limit was exceeded, when that is a count. */
  readonly used: number | undefined;
  /** The agent that was running. */
  readonly agent: string;
  /** Its agent path, e.g. `['coordinator', 'writer', 'researcher']`. */
  readonly path: readonly string[];

  constructor(options: { limit: RunLimitName; value: number; used?: number; agent: string; path: readonly string[]; detail?: string }) {
    super(limitMessage(options), { code: 'limit_exceeded' });
    this.name = 'LimitExceededError';
    this.limit = options.limit;
    this.value = options.value;
    this.used = options.used;
    this.agent = options.agent;
    this.path = options.path;
  }
}

function limitMessage(o: {
  limit: RunLimitName;
  value: number;
  used?: number;
  agent: string;
  path: readonly string[];
  detail?: string;
}): string {
  const where = o.path.length > 1 ? ` (${o.path.join(' > ')})` : '';
  const who = `Agent "${o.agent}"${where}`;
  switch (o.limit) {
    case 'max_depth':
      return `${who} would nest ${o.path.length} agents deep, beyond the limit max_depth = ${o.value}; is there a delegation loop? (raise limits.max_depth to allow deeper nesting)`;
    case 'max_total_steps':
      return `${who} exceeded the run's budget max_total_steps = ${o.value} model steps across all agents`;
    case 'max_total_tokens':
      return `${who} exceeded the run's budget max_total_tokens = ${o.value} tokens across all agents (used ${o.used ?? '?'})`;
    case 'max_duration_ms':
      return `${who} was running when the run exceeded its budget max_duration_ms = ${o.value} ms`;
    case 'max_iterations':
      return `${who} reached max_iterations = ${o.value}${o.detail ? ` ${o.detail}` : ''}`;
  }
}
