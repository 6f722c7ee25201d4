import { readdir, realpath } from 'node:fs/promises';
import nodePath from 'node:path';

import picomatch from 'picomatch';

import type { PathPolicy } from '../path-policy.js';
import { checkPathText } from '../path-text-check.js';
import { isSystemPath, within } from './sandbox-mounts.js';
import { ShellSyntaxRefusal, type ShellWord } from './shell-words.js';

/** Programs whose arguments never name files (they print them, compare them or wait). */
const NO_PATH_ARGUMENTS = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'exit',
  'return',
  'sleep',
  'seq',
  'test',
  '[',
  'expr',
  'basename',
  'dirname',
  'kill',
  'wait',
  'shift',
  'read',
  'type',
  'which',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
]);

/**
 * Interpreters and the options that give them code inline (`python3 -c`, `node -e` …). Without any
 * script file they read code from their input, which cannot be judged either.
 */
const INTERPRETERS: Array<{ name: RegExp; inline: RegExp }> = [
  { name: /^python[\d.]*$/, inline: /^-[A-Za-z]*c/ },
  { name: /^(node|nodejs|bun)$/, inline: /^(-[A-Za-z]*[ep][A-Za-z]*|--eval|--print)(=.*)?$/ },
  { name: /^deno$/, inline: /^(eval|-e|--eval)$/ },
  { name: /^perl[\d.]*$/, inline: /^-[A-Za-z]*[eE]/ },
  { name: /^ruby[\d.]*$/, inline: /^-[A-Za-z]*e/ },
  { name: /^php[\d.]*$/, inline: /^-[A-Za-z]*[rBRE]/ },
  { name: /^(lua[\d.]*|luajit)$/, inline: /^-[A-Za-z]*e/ },
  { name: /^(Rscript|R)$/, inline: /^(-e|--expr)/ },
  { name: /^(awk|gawk|mawk|nawk)$/, inline: /^[^-]/ },
  { name: /^(tclsh|wish|jshell|irb|ghci)$/, inline: /^/ },
];
const VERSION_OR_HELP = /^(-V|--version|-v|-h|--help)$/;
/** Paths a glob is expanded to at most before the word is refused. */
const MAX_GLOB_MATCHES = 1000;
const GLOB = /[*?[]/;

/**
 * The command checker's judgement of file names in a command's arguments, for commands that run
 * WITHOUT the sandbox (`isolation: none`). Every argument is taken as a possible path (also the value
 * of `--opt=value`, `key=value` and `-Ovalue`): resolved against every folder the line may be in at
 * that point, it must stay in the workspace or a read root (symbolic links followed, deny globs and
 * hidden paths refused) or in the read-only system the sandbox would show. What cannot be known
 * before the line runs is refused: `$VAR`, `~`, input added by `xargs`, inline code of interpreters
 * and shells. This is a best effort on the line as written: it cannot see what a program does with a
 * file it was given (a script, a Makefile, `npm test`), which only the sandbox confines.
 */
export class PathArguments {
  readonly #paths: PathPolicy;
  readonly #hidden: readonly string[];

  constructor(paths: PathPolicy, hidden: readonly string[]) {
    this.#paths = paths;
    this.#hidden = hidden;
  }

  /** Judges one simple command (name first); `dirs` are the folders the line may be in, and grows with `cd`. */
  async judge(words: ShellWord[], dirs: Set<string>): Promise<void> {
    const base = nodePath.posix.basename(words[0]!.value);
    const args = words.slice(1);
    if (base === 'eval') throw new ShellSyntaxRefusal('eval runs text as code, which cannot be judged without the sandbox');
    const interpreter = INTERPRETERS.find((i) => i.name.test(base));
    if (interpreter !== undefined) checkInterpreter(base, args, interpreter.inline);
    if (base === 'cd' || base === 'pushd' || base === 'popd') return this.#changeDir(base, args, dirs);
    if (base === 'xargs') throw new ShellSyntaxRefusal('xargs adds arguments at run time, which cannot be judged without the sandbox');
    if (NO_PATH_ARGUMENTS.has(base)) return;
    for (const word of args) await this.judgeWord(word, dirs, base);
  }

  /** Judges one word that may name a file (an argument, or a redirection target read from). */
  async judgeWord(word: ShellWord, dirs: Set<string>, program: string): Promise<void> {
    if (word.start < 0)
      throw new ShellSyntaxRefusal(`${program} gets arguments at run time (${word.raw}), which cannot be judged without the sandbox`);
    if (word.dynamic && word.value.includes('$')) {
      throw new ShellSyntaxRefusal(
        `"${word.raw}" is only known at run time and may name any file; write the path literally (without the sandbox)`,
      );
    }
    if ((word.dynamic && word.value.startsWith('~')) || /(^|[=:])~/.test(word.raw.replace(/'[^']*'|"[^"]*"/g, ''))) {
      throw new ShellSyntaxRefusal(`"${word.raw}" names a home folder, which is outside the workspace`);
    }
    for (const candidate of candidates(word.value)) {
      for (const path of word.dynamic ? expandBraces(candidate) : [candidate]) {
        for (const dir of dirs) await this.#judgePath(path, dir, word.raw);
      }
    }
  }

  async #judgePath(path: string, dir: string, shown: string): Promise<void> {
    if (path === '' || path === '-') return;
    const plainName = !path.includes('/') && path !== '..';
    const joined = nodePath.isAbsolute(path) ? path : `${dir}/${path}`;
    if (plainName && checkPathText(joined) !== undefined) return;
    const lexical = nodePath.resolve(joined);
    if (isSystemPath(lexical) && isSystemPath(await realpath(lexical).catch(() => lexical))) return;
    for (const p of GLOB.test(path) ? [joined, ...(await expandGlob(dir, path))] : [joined]) {
      let real: string;
      try {
        real = (await this.#paths.check(p, 'read')).path;
      } catch (err) {
        const why = err instanceof Error ? err.message.replace(/^Path "[^"]*" refused: /, '') : String(err);
        throw new ShellSyntaxRefusal(`the argument "${shown}" names a file outside what commands may use without the sandbox: ${why}`);
      }
      const hidden = this.#hidden.find((h) => within(real, h) || within(nodePath.resolve(p), h));
      if (hidden !== undefined) throw new ShellSyntaxRefusal(`the argument "${shown}" names ${hidden}, which commands may not use`);
    }
  }

  async #changeDir(base: string, args: ShellWord[], dirs: Set<string>): Promise<void> {
    const targets = args.filter((a) => !/^-[LPe@]+$/.test(a.value) && a.value !== '--');
    if (base === 'popd') {
      if (targets.length > 0) throw new ShellSyntaxRefusal('popd with arguments cannot be judged without the sandbox');
      return;
    }
    if (targets.length !== 1) {
      if (base === 'pushd' && targets.length === 0) return;
      throw new ShellSyntaxRefusal(`${base} needs exactly one folder (without the sandbox, ${base} alone or ${base} - cannot be judged)`);
    }
    const target = targets[0]!;
    if (target.dynamic || target.value === '-' || /^[+-]\d/.test(target.value)) {
      throw new ShellSyntaxRefusal(`${base} needs a folder written literally, not "${target.raw}"`);
    }
    await this.judgeWord(target, dirs, base);
    for (const dir of [...dirs]) dirs.add(nodePath.resolve(dir, target.value));
  }
}

/** The parts of an argument that may name a file: the word, and the value of `--opt=value`, `key=value`, `-Ovalue`. */
function candidates(value: string): string[] {
  const out: string[] = [];
  if (!value.startsWith('-')) out.push(value);
  const eq = value.indexOf('=');
  if (eq > 0) out.push(value.slice(eq + 1));
  else if (/^-[A-Za-z0-9]./.test(value) && !value.startsWith('--')) out.push(value.slice(2));
  return out;
}

function checkInterpreter(base: string, args: ShellWord[], inline: RegExp): void {
  if (args.length === 1 && VERSION_OR_HELP.test(args[0]!.value)) return;
  const refuse = (what: string) => {
    throw new ShellSyntaxRefusal(
      `${base} running inline code (${what.slice(0, 40)}) cannot be judged without the sandbox; put the code in a file`,
    );
  };
  if (/awk$/.test(base)) {
    if (!args.some((a) => a.value.startsWith('-f') || a.value.startsWith('--file')))
      refuse(args.find((a) => !a.value.startsWith('-'))?.raw ?? base);
    return;
  }
  const inlineArg = args.find((a) => inline.test(a.value));
  if (inlineArg !== undefined) refuse(inlineArg.raw);
  // `node --test` without files runs the test files it finds under the working directory: files, as a script is.
  if (/^(node|nodejs)$/.test(base) && args.some((a) => a.value === '--test')) return;
  if (!args.some((a) => !a.value.startsWith('-'))) {
    throw new ShellSyntaxRefusal(`${base} without a script file reads code from its input, which cannot be judged without the sandbox`);
  }
}

/** Bash's brace expansion of comma lists (`{a,b}c` → `ac`, `bc`); ranges are left as written. */
export function expandBraces(word: string, limit = 256): string[] {
  const open = word.indexOf('{');
  if (open < 0) return [word];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < word.length; i++) {
    const c = word[i];
    if (c === '{') depth++;
    else if (c === ',' && depth === 1) commas.push(i);
    else if (c === '}' && --depth === 0) {
      if (commas.length === 0) return expandBraces(word.slice(i + 1), limit).map((rest) => word.slice(0, i + 1) + rest);
      const cuts = [open, ...commas, i];
      const out: string[] = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        for (const x of expandBraces(word.slice(0, open) + word.slice(cuts[k]! + 1, cuts[k + 1]) + word.slice(i + 1), limit)) {
          out.push(x);
          if (out.length > limit) throw new ShellSyntaxRefusal(`the brace expansion of "${word}" makes more than ${limit} words`);
        }
      }
      return out;
    }
  }
  return [word];
}

/** The existing paths a glob matches (as `dir/…` strings), component by component, as bash would expand it. */
async function expandGlob(dir: string, pattern: string): Promise<string[]> {
  const parts = pattern.split('/');
  let found = [nodePath.isAbsolute(pattern) ? '' : dir];
  for (const [i, part] of parts.entries()) {
    if (part === '' && i === 0) continue;
    if (!GLOB.test(part)) {
      found = found.map((f) => `${f}/${part}`);
      continue;
    }
    const match = picomatch(part, { dot: part.startsWith('.') });
    const next: string[] = [];
    for (const f of found) {
      const names = await readdir(f || '/').catch(() => [] as string[]);
      for (const name of names) if (match(name)) next.push(`${f}/${name}`);
      if (next.length > MAX_GLOB_MATCHES) throw new ShellSyntaxRefusal(`the glob "${pattern}" matches more than ${MAX_GLOB_MATCHES} files`);
    }
    found = next;
  }
  return found;
}
