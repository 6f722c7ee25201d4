import type { Scorer } from '../../types/scorer.js';
import { binary, excerpt, scoredText, type TextTarget } from './scored-text.js';

/** Options of `exactMatch`. */
export interface ExactMatchOptions {
  /** The text to match; default the case's `expected.output`. */
  expected?: string;
  /** Compare ignoring case. Default false. */
  ignoreCase?: boolean;
  /** Compare without leading/trailing whitespace. Default true. */
  trim?: boolean;
  target?: TextTarget;
  name?: string;
}

/** Scores 1 when the text equals the expected one, else 0. */
export function exactMatch(options: ExactMatchOptions = {}): Scorer {
  const norm = (s: string): string => {
    const t = options.trim === false ? s : s.trim();
    return options.ignoreCase ? t.toLowerCase() : t;
  };
  return {
    name: options.name ?? 'exact',
    score(input) {
      const expected = options.expected ?? input.expected?.output;
      if (expected === undefined)
        return { score: 0, pass: false, reason: 'no expected text (give `expected`, or the case an expected output)' };
      const text = scoredText(input, options.target);
      const pass = norm(text) === norm(expected);
      return binary(pass, pass ? 'matches the expected text' : `expected "${excerpt(expected)}", got "${excerpt(text)}"`);
    },
  };
}
