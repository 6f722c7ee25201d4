import type { ShellWord } from './shell-words.js';

/** Marks a word whose value is only known when the line runs; only a `*` of a pattern can match it. */
const DYNAMIC = '\uE000';

/**
 * An allow/deny pattern such as `npm run *` or `git diff*`. It is matched against ONE simple
 * command at a time: the command's words after quote removal, joined by single spaces. `*`
 * matches any run of characters (spaces included, so `git diff*` matches `git diff --stat` and
 * `git difftool`); every other character matches itself; runs of blanks in the pattern count as
 * one space. A word that is empty or holds blanks or quotes is written single-quoted (`'a b'`),
 * so `"npm test"` (one word) does not match `npm test`. A word with an expansion, a glob, a
 * brace expansion or `~` can only be matched by a `*`.
 */
export class CommandPattern {
  readonly source: string;
  private readonly regex: RegExp;

  constructor(source: string) {
    this.source = source;
    const normalised = source.trim().replace(/\s+/g, ' ');
    if (normalised === '') throw new Error('empty pattern');
    const body = normalised
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*');
    this.regex = new RegExp(`^${body}$`);
  }

  /** Whether the command (its words, name first) matches. */
  matches(command: string): boolean {
    return this.regex.test(command);
  }
}

/** The text a command's words are matched as (see `CommandPattern`). */
export function commandText(words: readonly ShellWord[]): string {
  return words.map(wordText).join(' ');
}

function wordText(word: ShellWord): string {
  if (word.dynamic) return DYNAMIC + word.raw;
  if (word.value === '' || /[\s'"\\]/.test(word.value)) return `'${word.value.replace(/'/g, `'\\''`)}'`;
  return word.value;
}

/** A word standing for arguments added when the command runs (e.g. by `xargs` or `find -exec … {}`). */
export function unknownWord(raw: string): ShellWord {
  return { raw, value: raw, dynamic: true, substitutions: [], start: -1 };
}
