/**
 * A bash word and token reader for the shell tool's policy checks. It mirrors bash's quoting
 * rules (backslash, single and double quotes, `$'…'`) to compute each word's value after quote
 * removal, and marks everything it cannot know before the line runs (parameter, arithmetic and
 * command expansions, globs, brace expansion, `~`) as dynamic. Anything it does not understand
 * makes it throw a `ShellSyntaxRefusal`; the line is then refused, never guessed.
 */

/** A construct of the line the reader refused to analyse; the message is for the model. */
export class ShellSyntaxRefusal extends Error {}

/** One shell word. */
export interface ShellWord {
  /** The word as written. */
  raw: string;
  /** The value after quote removal (expansions kept as written). */
  value: string;
  /** True when the value is only known when the line runs (expansions, globs, braces, `~`, `$'…'`). */
  dynamic: boolean;
  /** Command lines inside `$(…)`, backticks, `<(…)` and `>(…)`. */
  substitutions: string[];
  /** Offset of the word in the line. */
  start: number;
}

/** A redirection operator with its optional file descriptor (`2>`, `&>>`, `<<<` …). */
export interface RedirectToken {
  kind: 'redirect';
  op: string;
  fd?: string;
  start: number;
}

/** A control operator (`;`, `&`, `&&`, `||`, `|`, `|&`, `(`, `)`, newline, `;;`). */
export interface OperatorToken {
  kind: 'op';
  op: string;
  start: number;
}

export type ShellToken = ({ kind: 'word' } & ShellWord) | RedirectToken | OperatorToken;

const OPERATORS = ['&&', '||', '|&', ';;&', ';;', ';&', '&', '|', ';', '(', ')', '\n'];
const REDIRECTS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '>>', '>|', '>&', '<&', '>', '<'];
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** Splits a command line into words, operators and redirections. */
export function readShellTokens(line: string): ShellToken[] {
  const tokens: ShellToken[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\\' && line[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < line.length && line[i] !== '\n') i++;
      continue;
    }
    const fd = /^(\d+)(?=[<>])/.exec(line.slice(i))?.[1];
    const at = fd !== undefined ? i + fd.length : i;
    if (line[at] === '{' && /^\{[A-Za-z_]\w*\}[<>]/.test(line.slice(at))) {
      throw new ShellSyntaxRefusal('named file descriptors ({var}>file) are not supported');
    }
    const redirect = REDIRECTS.find((r) => line.startsWith(r, at));
    if (redirect !== undefined && !(line[at + redirect.length] === '(' && (redirect === '<' || redirect === '>'))) {
      tokens.push({ kind: 'redirect', op: redirect, ...(fd !== undefined ? { fd } : {}), start: i });
      i = at + redirect.length;
      continue;
    }
    const op = fd === undefined ? OPERATORS.find((o) => line.startsWith(o, i)) : undefined;
    if (op !== undefined) {
      tokens.push({ kind: 'op', op, start: i });
      i += op.length;
      continue;
    }
    const word = readWord(line, i);
    tokens.push({ kind: 'word', ...word });
    i = word.start + word.raw.length;
  }
  return tokens;
}

/** Reads one word starting at `start` (which is not a blank or an operator). */
function readWord(line: string, start: number): ShellWord {
  let i = start;
  let value = '';
  let dynamic = false;
  const substitutions: string[] = [];
  while (i < line.length) {
    const c = line[i]!;
    if (META.has(c)) {
      // `<(…)` / `>(…)` inside or at the start of a word: process substitution.
      if ((c === '<' || c === '>') && line[i + 1] === '(') {
        const end = matchParen(line, i + 1);
        substitutions.push(line.slice(i + 2, end));
        value += line.slice(i, end + 1);
        dynamic = true;
        i = end + 1;
        continue;
      }
      break;
    }
    if (c === '\\') {
      if (line[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if (i + 1 >= line.length) throw new ShellSyntaxRefusal('the line ends with a lone backslash');
      value += line[i + 1];
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxRefusal('unterminated single quote');
      value += line.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const r = readDoubleQuoted(line, i + 1, substitutions);
      value += r.value;
      dynamic ||= r.dynamic;
      i = r.end + 1;
      continue;
    }
    if (c === '$' || c === '`') {
      const r = readExpansion(line, i, substitutions);
      if (r === undefined) {
        value += c;
        i++;
        continue;
      }
      value += line.slice(i, r.end);
      dynamic = true;
      i = r.end;
      continue;
    }
    if (c === '*' || c === '?' || (c === '[' && hasClosingBracket(line, i))) dynamic = true;
    if (c === '~' && i === start) dynamic = true;
    if (c === '{' && hasBraceExpansion(line, i)) dynamic = true;
    value += c;
    i++;
  }
  return { raw: line.slice(start, i), value, dynamic, substitutions, start };
}

/** Reads `"…"` from after the opening quote; returns the value and the closing quote's index. */
function readDoubleQuoted(line: string, from: number, substitutions: string[]): { value: string; dynamic: boolean; end: number } {
  let i = from;
  let value = '';
  let dynamic = false;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '"') return { value, dynamic, end: i };
    if (c === '\\' && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1]!)) {
      if (line[i + 1] !== '\n') value += line[i + 1];
      i += 2;
      continue;
    }
    if (c === '$' || c === '`') {
      const r = readExpansion(line, i, substitutions);
      if (r !== undefined) {
        value += line.slice(i, r.end);
        dynamic = true;
        i = r.end;
        continue;
      }
    }
    value += c;
    i++;
  }
  throw new ShellSyntaxRefusal('unterminated double quote');
}

/**
 * Reads an expansion at `i` (`$name`, `${…}`, `$(…)`, `$((…))`, `` `…` ``, `$'…'`, `$"…"`);
 * `undefined` when the `$` is a literal dollar sign.
 */
function readExpansion(line: string, i: number, substitutions: string[]): { end: number } | undefined {
  if (line[i] === '`') {
    let j = i + 1;
    let inner = '';
    while (j < line.length && line[j] !== '`') {
      if (line[j] === '\\' && j + 1 < line.length) {
        inner += '$`\\'.includes(line[j + 1]!) ? line[j + 1] : line.slice(j, j + 2);
        j += 2;
        continue;
      }
      inner += line[j];
      j++;
    }
    if (j >= line.length) throw new ShellSyntaxRefusal('unterminated backquote');
    substitutions.push(inner);
    return { end: j + 1 };
  }
  const next = line[i + 1];
  if (next === '(' && line[i + 2] === '(') {
    const end = matchParen(line, i + 1);
    const inner = line.slice(i + 3, end - 1);
    if (/\$\(|`|[<>]\(/.test(inner)) throw new ShellSyntaxRefusal('command substitution inside $((…)) is not supported');
    return { end: end + 1 };
  }
  if (next === '(') {
    const end = matchParen(line, i + 1);
    substitutions.push(line.slice(i + 2, end));
    return { end: end + 1 };
  }
  if (next === '{') {
    const end = matchBrace(line, i + 1);
    if (/\$\(|`|[<>]\(/.test(line.slice(i + 2, end))) throw new ShellSyntaxRefusal('command substitution inside ${…} is not supported');
    return { end: end + 1 };
  }
  if (next === "'") {
    let j = i + 2;
    while (j < line.length && line[j] !== "'") j += line[j] === '\\' ? 2 : 1;
    if (j >= line.length) throw new ShellSyntaxRefusal("unterminated $'…' quote");
    return { end: j + 1 };
  }
  if (next === '"') {
    const r = readDoubleQuoted(line, i + 2, substitutions);
    return { end: r.end + 1 };
  }
  const name = /^(?:[A-Za-z_]\w*|[0-9@*#?$!-])/.exec(line.slice(i + 1));
  return name ? { end: i + 1 + name[0].length } : undefined;
}

/** Index of the `)` closing the `(` at `open`, skipping quotes, backticks, comments and nested parentheses. */
function matchParen(line: string, open: number): number {
  return matchClosing(line, open, { open: '(', close: ')', code: true, unclosed: 'unbalanced parentheses' });
}

/** Index of the `}` closing the `${` whose `{` is at `open`, skipping quotes and nested braces. */
function matchBrace(line: string, open: number): number {
  return matchClosing(line, open, { open: '{', close: '}', code: false, unclosed: 'unterminated ${' });
}

/**
 * The scan behind `matchParen` and `matchBrace`: `code` is whether the inside is shell code
 * (a subshell or substitution: backticks and `#` comments count there, not inside `${…}`).
 */
function matchClosing(line: string, open: number, how: { open: string; close: string; code: boolean; unclosed: string }): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'") {
      i = skipTo(line, i + 1, "'");
      continue;
    }
    if (c === '"') {
      i = skipDouble(line, i + 1);
      continue;
    }
    if (how.code && c === '`') {
      i = skipTo(line, i + 1, '`');
      continue;
    }
    if (how.code && c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      i = skipTo(line, i + 1, '\n');
      continue;
    }
    if (c === how.open) depth++;
    if (c === how.close && --depth === 0) return i;
  }
  throw new ShellSyntaxRefusal(how.unclosed);
}

function skipTo(line: string, from: number, ch: string): number {
  const end = line.indexOf(ch, from);
  if (end < 0) throw new ShellSyntaxRefusal(`unterminated ${ch === '\n' ? 'comment' : ch}`);
  return end;
}

function skipDouble(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] === '"') return i;
    if (line[i] === '$' && line[i + 1] === '(') {
      i = matchParen(line, i + 1);
      continue;
    }
  }
  throw new ShellSyntaxRefusal('unterminated double quote');
}

/** Whether an unquoted `{` starts a brace expansion (`{a,b}` or `{1..3}`). */
function hasBraceExpansion(line: string, open: number): boolean {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const c = line[i]!;
    if (META.has(c)) return false;
    if (c === '{') depth++;
    if (c === '}' && --depth === 0) return /,|\.\./.test(line.slice(open, i));
  }
  return false;
}

/** Whether an unquoted `[` has a `]` later in the same word (then it is a glob bracket). */
function hasClosingBracket(line: string, open: number): boolean {
  for (let i = open + 1; i < line.length; i++) {
    if (META.has(line[i]!)) return false;
    if (line[i] === ']') return true;
  }
  return false;
}
