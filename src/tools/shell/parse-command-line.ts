import { readShellTokens, ShellSyntaxRefusal, type ShellToken, type ShellWord } from './shell-words.js';

/** A redirection of a simple command: `2>>log`, `<input`, `>&2` … */
export interface ShellRedirect {
  op: string;
  fd?: string;
  target: ShellWord;
}

/** One simple command: its leading assignments, its words (name first) and its redirections. */
export interface SimpleCommand {
  assignments: ShellWord[];
  words: ShellWord[];
  redirects: ShellRedirect[];
}

/** What the policy needs to know about a command line. */
export interface ParsedCommandLine {
  /** Every simple command, wherever it stands (pipelines, lists, subshells, groups, if/while/for bodies). */
  commands: SimpleCommand[];
  /** Words that are not commands but are expanded (the list of a `for` loop). */
  loopWords: ShellWord[];
  /** Top-level statements, with whether each ends with `&` (compared with the real parser's view). */
  statements: Array<{ background: boolean }>;
  /** Whether any command is run in the background (`&`, at any depth). */
  background: boolean;
}

/** Reserved words that only shape the line; the commands between them are what runs. */
const STRUCTURE = new Set(['if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', '{', '}', '!']);
const OPENERS = new Set(['if', 'while', 'until', 'for', '{']);
const CLOSERS = new Set(['fi', 'done', '}']);
const UNSUPPORTED: Record<string, string> = {
  case: 'case statements are not supported by this tool; use if/elif',
  select: 'select loops are not supported by this tool',
  function: 'defining functions is refused',
  coproc: 'coprocesses are refused',
  '[[': '[[ … ]] tests are not supported by this tool; use [ … ] or test',
  '((': '(( … )) arithmetic commands are not supported by this tool; use [ … ] or $((…)) in an argument',
};
const ASSIGNMENT = /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/;

/**
 * Parses a command line into its simple commands (see `ParsedCommandLine`). Throws
 * `ShellSyntaxRefusal` for constructs it does not analyse (here-documents, functions, `case`, `[[`).
 */
export function parseCommandLine(line: string): ParsedCommandLine {
  const tokens = readShellTokens(line);
  const out: ParsedCommandLine = { commands: [], loopWords: [], statements: [], background: false };
  let depth = 0;
  let current: SimpleCommand | undefined;
  let statementOpen = false;
  const finish = () => {
    if (current && (current.words.length > 0 || current.assignments.length > 0 || current.redirects.length > 0)) out.commands.push(current);
    current = undefined;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'op') {
      if (t.op === '(') {
        if (current && current.words.length > 0) {
          throw new ShellSyntaxRefusal(
            tokens[i + 1]?.kind === 'op' && (tokens[i + 1] as { op: string }).op === ')'
              ? 'defining functions is refused'
              : `unexpected "(" after "${current.words.at(-1)!.raw}"`,
          );
        }
        finish();
        if (tokens[i + 1]?.kind === 'op' && (tokens[i + 1] as { op: string }).op === '(') throw new ShellSyntaxRefusal(UNSUPPORTED['((']!);
        depth++;
        statementOpen = true;
        continue;
      }
      finish();
      if (t.op === ')') {
        depth--;
        continue;
      }
      if (t.op === ';;' || t.op === ';&' || t.op === ';;&') throw new ShellSyntaxRefusal(UNSUPPORTED.case!);
      if (t.op === '&') out.background = true;
      if ((t.op === ';' || t.op === '&' || t.op === '\n') && depth === 0 && statementOpen) {
        out.statements.push({ background: t.op === '&' });
        statementOpen = false;
      }
      continue;
    }
    if (t.kind === 'redirect') {
      if (t.op === '<<' || t.op === '<<-')
        throw new ShellSyntaxRefusal('here-documents (<<) are not supported by this tool; use a here-string (<<<) or a file');
      const target = tokens[i + 1];
      if (target?.kind !== 'word') throw new ShellSyntaxRefusal(`redirection ${t.op} has no target`);
      current ??= { assignments: [], words: [], redirects: [] };
      current.redirects.push({ op: t.op, ...(t.fd !== undefined ? { fd: t.fd } : {}), target });
      statementOpen = true;
      i++;
      continue;
    }
    statementOpen = true;
    const inCommandPosition = current === undefined || current.words.length === 0;
    if (inCommandPosition && !t.dynamic && t.raw === t.value) {
      const unsupported = UNSUPPORTED[t.value];
      if (unsupported !== undefined) throw new ShellSyntaxRefusal(unsupported);
      if (t.value === 'for') {
        i = readForHeader(tokens, i, out);
        depth++;
        continue;
      }
      if (STRUCTURE.has(t.value) && (current === undefined || (current.assignments.length === 0 && current.redirects.length === 0))) {
        if (OPENERS.has(t.value)) depth++;
        if (CLOSERS.has(t.value)) depth--;
        continue;
      }
    }
    current ??= { assignments: [], words: [], redirects: [] };
    if (current.words.length === 0 && ASSIGNMENT.test(t.value) && !t.raw.startsWith('=')) {
      if (tokens[i + 1]?.kind === 'op' && (tokens[i + 1] as { op: string }).op === '(' && tokens[i + 1]!.start === t.start + t.raw.length) {
        throw new ShellSyntaxRefusal('array assignments are not supported by this tool');
      }
      current.assignments.push(t);
      continue;
    }
    current.words.push(t);
  }
  finish();
  if (statementOpen && depth === 0) out.statements.push({ background: false });
  if (depth !== 0) throw new ShellSyntaxRefusal('unbalanced grouping ( ), { }, if/fi or do/done');
  return out;
}

/** Reads `for NAME [in WORDS…]` up to the `;` / newline / `do`; returns the index of the last token read. */
function readForHeader(tokens: ShellToken[], at: number, out: ParsedCommandLine): number {
  const name = tokens[at + 1];
  if (name?.kind !== 'word' || !/^[A-Za-z_]\w*$/.test(name.raw)) {
    throw new ShellSyntaxRefusal('only `for NAME in WORDS; do …; done` loops are supported by this tool');
  }
  let i = at + 2;
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'op' && (t.op === ';' || t.op === '\n')) return i;
    if (t.kind === 'word' && t.raw === 'do') return i;
    if (t.kind !== 'word') throw new ShellSyntaxRefusal('unexpected operator in a for loop header');
    if (t.raw !== 'in') out.loopWords.push(t);
  }
  return i;
}
