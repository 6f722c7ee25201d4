/**
 * The command prefixes behind "p — always this prefix" and `--allow`: which prefix a shell command line may be
 * approved by (`npm test`, `node --test`, `git status`), and whether an approved prefix covers a later line.
 *
 * A prefix never approves arbitrary code: a bare interpreter, shell or launcher (`node`, `python`, `bash`, `npx`,
 * `env`, `sudo`, `xargs`, …) is never a prefix, a line running an interpreter is never covered when it passes code
 * inline (`-e`, `-c`, `--eval`, `-p`, `--import`, a `data:` URL, a word starting with a glob that could expand to
 * such a flag), and a line with more than one command or an expansion (`&&`, `||`, `;`, `|`, backticks, `$(`, `$`,
 * redirections, braces, subshells) is neither offered a prefix nor covered by one: it is always asked again.
 */

/** Characters that, unquoted, make a line more than one plain command (or let the shell rewrite its words). */
const SPECIAL = new Set([';', '&', '|', '`', '$', '<', '>', '(', ')', '{', '}', '\n', '\r']);

/** Programs that run another command named in their arguments: never a prefix, never covered. */
const LAUNCHERS = new Set([
  'env',
  'sudo',
  'doas',
  'su',
  'runuser',
  'xargs',
  'nohup',
  'timeout',
  'nice',
  'ionice',
  'time',
  'exec',
  'eval',
  'command',
  'builtin',
  'source',
  '.',
  'watch',
  'strace',
  'ltrace',
  'gdb',
  'taskset',
  'chroot',
  'setsid',
  'stdbuf',
  'flock',
  'parallel',
  'script',
  'unbuffer',
  'firejail',
  'bwrap',
  'ssh',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'busybox',
  'trap',
]);

/** Interpreters and shells: a prefix needs what they run (`node --test`, `node test.js`, `python -m pytest`). */
const INTERPRETERS =
  /^(node|nodejs|python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby|irb|php|lua(jit)?|rscript|julia|tclsh|wish|osascript|deno|bun|tsx|ts-node|groovy|scala|elixir|iex|erl|escript|java|jshell|ghci|runghc|swift|dotnet-script|sh|bash|zsh|dash|ksh|mksh|ash|rbash|fish|csh|tcsh|pwsh|powershell)$/;

/** Programs whose first argument is a subcommand: the prefix is the program and the subcommand (`npm test`). */
const SUBCOMMAND_PROGRAMS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'git',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'pipenv',
  'conda',
  'dotnet',
  'mvn',
  'gradle',
  'rustup',
  'gh',
  'make',
  'just',
  'bundle',
  'composer',
]);

/** Raw text that makes a line always asked again, even quoted: command separators, pipes, substitutions. */
const COMPOUND = /[;|`\n]|&&|\$\(/;

/** Package runners whose first argument is the program they run (`npx vitest`): the prefix includes it. */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'pipx']);

/** `program subcommand` pairs that run the next word as a program (`npm exec vitest`, `uv run pytest`). */
const RUNNER_SUBCOMMANDS =
  /^(npm (exec|x|run|run-script)|pnpm (exec|dlx|run)|yarn (exec|dlx|run)|bun (run|x)|deno run|uv (run|tool)|poetry run|pipenv run|conda run|cargo run|go run|dotnet run|docker (run|exec)|podman (run|exec)|kubectl exec|bundle exec|pip(3)? install|gh extension)$/;

/** Subcommands of interpreters that take code inline (`deno eval '…'`). */
const INLINE_SUBCOMMANDS = new Set(['eval', 'repl']);

/** Options of interpreters that take code, or a module URL, in the next word or after `=`. */
const INLINE_LONG = /^--(eval|print|command|import|loader|experimental-loader|require|exec|execute|interactive|inspect-brk-node)(=|$)/;

/** Options that take their value as the next word and name what runs (`python -m pytest`, `node --run test`). */
const ARGUMENT_FLAGS = new Set(['-m', '--run']);

/** Option words after which the prefix ends (`node --test`). */
const MODE_FLAGS = new Set(['--test']);

/** Most words a prefix has. */
const MAX_WORDS = 4;

/**
 * The words of a command line as the shell would pass them (quotes and backslashes removed), or `undefined` when
 * the line is more than one plain command: it has an unquoted operator, expansion, redirection, brace or
 * subshell, or an unterminated quote. `glob` marks words starting with an unquoted `*`, `?` or `[`.
 */
export function plainCommandWords(line: string): Array<{ value: string; glob: boolean }> | undefined {
  const words: Array<{ value: string; glob: boolean }> = [];
  let current: { value: string; glob: boolean } | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current!.value += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '$' || c === '`') return undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) current!.value += line[++i];
      else current!.value += c;
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (current) words.push(current);
      current = undefined;
      continue;
    }
    if (SPECIAL.has(c)) return undefined;
    current ??= { value: '', glob: false };
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      if (i + 1 >= line.length || line[i + 1] === '\n') return undefined;
      current.value += line[++i];
    } else {
      if (current.value === '' && (c === '*' || c === '?' || c === '[')) current.glob = true;
      current.value += c;
    }
  }
  if (quote !== undefined) return undefined;
  if (current) words.push(current);
  return words;
}

const baseName = (word: string): string => (word.split('/').pop() ?? word).toLowerCase();

/** Whether a word passes code inline to an interpreter or shell (`-e`, `-pe`, `-c`, `--eval=…`, `data:`). */
export function isInlineCodeFlag(word: string): boolean {
  if (/^data:/i.test(word) || /[=:]data:/i.test(word)) return true;
  if (INLINE_LONG.test(word)) return true;
  // Short options, alone or clustered (`-e`, `-pe`, `-Ic`, `-ne`), and -E (perl), -r (php code), -x (interactive).
  return /^-[a-zA-Z]*[ecpEr]/.test(word) && !word.startsWith('--');
}

/**
 * Where the program that really runs starts, after runner subcommands (`npx vitest` → `vitest`,
 * `uv run python` → `python`); `undefined` when the line runs nothing known (a runner with an option first).
 */
function effectiveStart(words: string[]): number | undefined {
  let i = 0;
  for (let guard = 0; guard < 4 && i < words.length; guard++) {
    const program = baseName(words[i]);
    if (RUNNERS.has(program)) i += 1;
    else if (words[i + 1] !== undefined && RUNNER_SUBCOMMANDS.test(`${program} ${words[i + 1]}`)) i += 2;
    else return i;
    if (words[i] === undefined || words[i].startsWith('-')) return undefined;
  }
  return i;
}

/** The words of an interpreter's prefix from `start` (its name): what it runs, or `undefined` (inline code, a REPL). */
function interpreterPrefix(words: string[], start: number): string[] | undefined {
  const out = [words[start]];
  for (let i = start + 1; i < words.length && out.length < MAX_WORDS; i++) {
    const w = words[i];
    if (isInlineCodeFlag(w) || (out.length === 1 && INLINE_SUBCOMMANDS.has(w))) return undefined;
    out.push(w);
    if (ARGUMENT_FLAGS.has(w)) {
      if (words[i + 1] === undefined || isInlineCodeFlag(words[i + 1])) return undefined;
      out.push(words[i + 1]);
      return out;
    }
    if (MODE_FLAGS.has(w) || !w.startsWith('-')) return out;
  }
  return undefined;
}

/** Whether the program at `start` is an interpreter or shell. */
const isInterpreter = (words: string[], start: number): boolean => INTERPRETERS.test(baseName(words[start] ?? ''));

/**
 * The prefix "p — always this prefix" offers for a shell command line (`npm test -- -u` → `npm test`,
 * `node --test` → `node --test`, `python -m pytest -x` → `python -m pytest`), or `undefined` when no prefix is safe
 * to offer: a compound line, a bare interpreter, shell or launcher, inline code, an assignment in front.
 */
export function commandPrefix(line: string): string | undefined {
  if (COMPOUND.test(line)) return undefined;
  const parsed = plainCommandWords(line.trim());
  if (parsed === undefined || parsed.length === 0) return undefined;
  const words = parsed.map((w) => w.value);
  if (words.some((w) => w.includes('\n'))) return undefined;
  const first = words[0];
  if (/^[A-Za-z_]\w*=/.test(first) || LAUNCHERS.has(baseName(first))) return undefined;
  const start = effectiveStart(words);
  if (start === undefined || start >= words.length || LAUNCHERS.has(baseName(words[start]))) return undefined;
  const head = words.slice(0, start);
  const program = baseName(words[start]);
  if (isInterpreter(words, start)) {
    const rest = interpreterPrefix(words, start);
    return rest === undefined ? undefined : [...head, ...rest].join(' ');
  }
  if (SUBCOMMAND_PROGRAMS.has(program)) {
    const sub = words[start + 1];
    if (sub === undefined || sub.startsWith('-')) return start === 0 && program === 'make' && sub === undefined ? 'make' : undefined;
    return [...head, words[start], sub].join(' ');
  }
  return [...head, words[start]].join(' ');
}

/**
 * Whether an approved prefix covers a command line: the line is one plain command whose words begin with the
 * prefix's words, and, when it runs an interpreter or shell, passes no code inline.
 */
export function prefixCovers(prefix: string, line: string): boolean {
  if (COMPOUND.test(line)) return false;
  const parsed = plainCommandWords(line.trim());
  const want = plainCommandWords(prefix.trim());
  if (parsed === undefined || want === undefined || want.length === 0 || parsed.length < want.length) return false;
  const words = parsed.map((w) => w.value);
  if (!want.every((w, i) => w.value === words[i])) return false;
  if (/^[A-Za-z_]\w*=/.test(words[0]) || LAUNCHERS.has(baseName(words[0]))) return false;
  if (words.some((w) => /^data:/i.test(w) || /[=:]data:/i.test(w) || /^--(node-options|script-shell)(=|$)/.test(w))) return false;
  const start = effectiveStart(words);
  if (start === undefined) return false;
  if (LAUNCHERS.has(baseName(words[start] ?? ''))) return false;
  if (isInterpreter(words, start)) {
    const rest = parsed.slice(start + 1);
    if (rest.some((w) => w.glob || isInlineCodeFlag(w.value) || INLINE_SUBCOMMANDS.has(w.value))) return false;
  }
  return true;
}
