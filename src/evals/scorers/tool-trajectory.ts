import { isDeepStrictEqual } from 'node:util';

import type { ExpectedToolCall, Scorer, ScoreToolCall } from '../../types/scorer.js';

/**
 * How calls are compared: `exact` the same calls in the same order and nothing else; `in_order`
 * the expected calls in this order, others allowed between; `any_order` the same calls in any
 * order, nothing else; `subset` every call made is one of the expected (none need be made).
 */
export type TrajectoryMode = 'exact' | 'in_order' | 'any_order' | 'subset';

/** Options of `toolTrajectory`. */
export interface ToolTrajectoryOptions {
  /** The expected calls; default the case's `expected.toolCalls`. */
  expected?: ExpectedToolCall[];
  /** Default `exact`. */
  mode?: TrajectoryMode;
  /** Argument names left out of the comparison (e.g. ids, timestamps). */
  ignoreArgs?: readonly string[];
  name?: string;
}

/** Scores the run's tool calls against an expected trajectory; the score is the share matched. */
export function toolTrajectory(options: ToolTrajectoryOptions = {}): Scorer {
  const mode = options.mode ?? 'exact';
  const ignore = new Set(options.ignoreArgs ?? []);
  const strip = (args: unknown): unknown => {
    if (ignore.size === 0 || args === null || typeof args !== 'object' || Array.isArray(args)) return args;
    return Object.fromEntries(Object.entries(args).filter(([k]) => !ignore.has(k)));
  };
  const matches = (e: ExpectedToolCall, c: ScoreToolCall): boolean =>
    e.tool === c.toolName && (e.args === undefined || isDeepStrictEqual(strip(e.args), strip(c.input ?? {})));
  return {
    name: options.name ?? `tool_calls_${mode}`,
    score(input) {
      const expected = options.expected ?? input.expected?.toolCalls;
      if (expected === undefined)
        return { score: 0, pass: false, reason: 'no expected tool calls (give `expected`, or the case expected tool calls)' };
      const actual = input.toolCalls;
      const made = actual.map((c) => c.toolName).join(', ') || 'none';
      const want = expected.map((c) => c.tool).join(', ') || 'none';
      const details = { mode, expected: expected.map((c) => c.tool), actual: actual.map((c) => c.toolName) };
      const done = (
        matched: number,
        total: number,
        pass: boolean,
      ): { score: number; pass: boolean; reason: string; details: Record<string, unknown> } => ({
        score: total === 0 ? (pass ? 1 : 0) : matched / total,
        pass,
        reason: pass ? `tool calls match (${mode}): ${made}` : `tool calls ${made}; expected (${mode}) ${want}`,
        details,
      });
      switch (mode) {
        case 'exact': {
          let same = 0;
          for (let i = 0; i < Math.min(expected.length, actual.length); i++) if (matches(expected[i], actual[i])) same++;
          const total = Math.max(expected.length, actual.length);
          return done(same, total, same === total);
        }
        case 'in_order': {
          let i = 0;
          for (const c of actual) if (i < expected.length && matches(expected[i], c)) i++;
          return done(i, expected.length, i === expected.length);
        }
        case 'any_order': {
          const found = pairUp(expected, actual, matches);
          const total = Math.max(expected.length, actual.length);
          return done(found, total, found === total);
        }
        case 'subset': {
          const allowed = actual.filter((c) => expected.some((e) => matches(e, c))).length;
          return done(allowed, actual.length, allowed === actual.length);
        }
        default: {
          const never: never = mode;
          return never;
        }
      }
    },
  };
}

/** How many expected calls find a distinct actual call that matches them. */
function pairUp(
  expected: ExpectedToolCall[],
  actual: ScoreToolCall[],
  matches: (e: ExpectedToolCall, c: ScoreToolCall) => boolean,
): number {
  const used = new Set<number>();
  let found = 0;
  for (const e of expected) {
    const i = actual.findIndex((c, j) => !used.has(j) && matches(e, c));
    if (i >= 0) {
      used.add(i);
      found++;
    }
  }
  return found;
}
