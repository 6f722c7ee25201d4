import { ValidationError } from '../../errors/validation-error.js';
import type { Scorer } from '../../types/scorer.js';
import { binary, scoredText, type TextTarget } from './scored-text.js';

/** Options of `regexMatch`. */
export interface RegexMatchOptions {
  /** A JavaScript regular expression (source text). */
  pattern: string;
  /** Regular-expression flags, e.g. `i`. */
  flags?: string;
  /** Pass when the pattern does NOT match (a guardrail against a pattern). Default false. */
  negate?: boolean;
  target?: TextTarget;
  name?: string;
}

/** Scores 1 when the pattern matches the text (with `negate`: when it does not), else 0. */
export function regexMatch(options: RegexMatchOptions): Scorer {
  let re: RegExp;
  try {
    re = new RegExp(options.pattern, options.flags);
  } catch (err) {
    throw new ValidationError(`regex scorer: invalid pattern /${options.pattern}/${options.flags ?? ''}: ${(err as Error).message}`);
  }
  const negate = options.negate === true;
  return {
    name: options.name ?? (negate ? 'not_regex' : 'regex'),
    score(input) {
      const m = re.exec(scoredText(input, options.target));
      const pass = negate ? m === null : m !== null;
      const reason = m ? `matches ${re} ("${m[0].slice(0, 60)}")` : `does not match ${re}`;
      return binary(pass, reason);
    },
  };
}
