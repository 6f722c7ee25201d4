import nodePath from 'node:path';

import { CommandRefusedError } from '../../errors/command-refused-error.js';
import { PathPolicy } from '../path-policy.js';
import { CommandPattern, commandText, unknownWord } from './command-pattern.js';
import { envAssignments, findExecCommands, shellInvocation, SHELLS, TRANSPARENT_WRAPPERS, xargsCommand } from './command-wrappers.js';
import { parseCommandLine, type SimpleCommand } from './parse-command-line.js';
import { PathArguments } from './path-arguments.js';
import { checkRealParse } from './real-parse.js';
import { ShellSyntaxRefusal, type ShellWord } from './shell-words.js';

/** Options for `new CommandPolicy()`. */
export interface CommandPolicyOptions {
  /** Patterns a simple command must match to run (see `CommandPattern`); empty or absent = everything not denied. */
  allow?: readonly string[];
  /** Patterns that refuse a simple command; deny wins over allow. */
  deny?: readonly string[];
  /** Allow `$(…)`, backticks and `<(…)`/`>(…)` (their commands are checked too). Default `false`. */
  allowSubstitution?: boolean;
  /** Allow `&` (background jobs). Default `false`. */
  allowBackground?: boolean;
  /** Allow `/dev/tcp` and `/dev/udp` redirections. Default `false`. */
  network?: boolean;
  /** Folder the line runs in (relative redirection targets are resolved against it). */
  cwd: string;
  /** Where redirections may write (and, without the sandbox, which files arguments may name). */
  paths: PathPolicy;
  /** Files and folders no argument may name without the sandbox (the running Corvid's config and database). */
  hiddenPaths?: readonly string[];
  /**
   * Whether the commands run in the bubblewrap sandbox. Default `false`: the checker then also
   * judges the files named in arguments and read redirections, and refuses inline code (`bash -c`,
   * `eval`, `python3 -c`, `node -e` …) and `xargs` (see `PathArguments`).
   */
  sandboxed?: boolean;
}

/** Commands the tool never runs, with why. */
const REFUSED: Record<string, string> = {
  sudo: 'runs commands as another user',
  doas: 'runs commands as another user',
  su: 'runs commands as another user',
  pkexec: 'runs commands as another user',
  runuser: 'runs commands as another user',
  setpriv: 'changes privileges',
  chroot: 'changes the root folder',
  nsenter: 'enters other namespaces',
  unshare: 'changes namespaces',
  source: 'runs a file whose commands cannot be checked',
  '.': 'runs a file whose commands cannot be checked',
  alias: 'defines aliases',
  unalias: 'changes aliases',
  trap: 'runs a command given as text later',
  enable: 'loads shell builtins',
  hash: 'changes which program a name runs',
  shopt: 'changes how the shell parses',
  set: 'changes how the shell runs the rest of the line',
  coproc: 'starts a coprocess',
};
/** Programs that talk to the network; without the sandbox (which has none) they are refused unless `network`. */
const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'telnet',
  'http',
  'https',
  'aria2c',
]);
/** Variables whose value changes which code runs; setting them in the line is refused. */
const DANGEROUS_VARIABLE =
  /^(PATH|IFS|ENV|BASH\w*|SHELLOPTS|PS4|PROMPT_COMMAND|CDPATH|GLOBIGNORE|HOME|EDITOR|VISUAL|PAGER|BROWSER|GCONV_PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|NODE_OPTIONS|NODE_PATH|XDG_\w+|GIT_\w+|LD_\w+|DYLD_\w+|npm_config_\w+|PYTHON\w*|PERL\w*|RUBY\w*)$/i;
const DECLARE = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const CHANGES_DIR = new Set(['cd', 'pushd', 'popd']);
const WRITES = new Set(['>', '>>', '>|', '<>', '&>', '&>>']);
const DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/dev/zero', '/dev/tty']);
const MAX_DEPTH = 6;
/** Longest command line checked (the checker's worst case grows with the square of a word's length). */
const MAX_LINE = 16_384;

interface CheckState {
  depth: number;
  changedDir: boolean;
  /** The folders the line may be in at this point (grows with each `cd`). */
  dirs: Set<string>;
}

/**
 * Decides whether a command line may run. `check` throws a `CommandRefusedError` whose message
 * tells the model what was refused and why. See docs/tools.md ("Shell") for every rule.
 */
export class CommandPolicy {
  readonly #options: CommandPolicyOptions;
  readonly #allow: CommandPattern[];
  readonly #deny: CommandPattern[];
  /** Judges file names in arguments; only without the sandbox. */
  readonly #unconfined: PathArguments | undefined;

  constructor(options: CommandPolicyOptions) {
    this.#options = options;
    this.#unconfined = options.sandboxed === true ? undefined : new PathArguments(options.paths, options.hiddenPaths ?? []);
    this.#allow = (options.allow ?? []).map((p) => new CommandPattern(p));
    this.#deny = (options.deny ?? []).map((p) => new CommandPattern(p));
  }

  /** Throws `CommandRefusedError` unless every command of `line` may run. */
  async check(line: string): Promise<void> {
    try {
      await this.#checkLine(line, { depth: 0, changedDir: false, dirs: new Set([this.#options.cwd]) });
    } catch (err) {
      if (err instanceof ShellSyntaxRefusal || err instanceof Refusal) {
        throw new CommandRefusedError(`Command refused: ${err.message}`, { command: line });
      }
      throw err;
    }
  }

  async #checkLine(line: string, state: CheckState): Promise<void> {
    if (state.depth > MAX_DEPTH) throw new Refusal('commands nested too deeply');
    if (line.includes('\0')) throw new Refusal('the line contains a NUL byte');
    if (line.length > MAX_LINE) throw new Refusal(`the command line is longer than ${MAX_LINE} characters; put long scripts in a file`);
    const real = await checkRealParse(line);
    const parsed = parseCommandLine(line);
    // Defence in depth: the real parser and ours must see the same statements.
    const agrees = real.length === parsed.statements.length && real.every((s, i) => s.background === parsed.statements[i]!.background);
    if (!agrees) throw new Refusal('the line could not be analysed reliably; split it into simpler commands');
    if (parsed.background && this.#options.allowBackground !== true) {
      throw new Refusal('background jobs (&) are not allowed; run the command in the foreground');
    }
    for (const w of parsed.loopWords) await this.#checkSubstitutions(w, state);
    for (const command of parsed.commands) await this.#checkCommand(command, state);
  }

  async #checkSubstitutions(word: ShellWord, state: CheckState): Promise<void> {
    if (word.substitutions.length === 0) return;
    if (this.#options.allowSubstitution !== true) {
      throw new Refusal(`command substitution ($(…), \`…\`, <(…), >(…)) is not allowed: "${word.raw}"`);
    }
    for (const inner of word.substitutions) await this.#checkLine(inner, { ...state, depth: state.depth + 1 });
  }

  async #checkCommand(command: SimpleCommand, state: CheckState): Promise<void> {
    for (const w of [...command.assignments, ...command.words, ...command.redirects.map((r) => r.target)]) {
      await this.#checkSubstitutions(w, state);
    }
    for (const a of command.assignments) checkAssignment(a);
    for (const r of command.redirects) await this.#checkRedirect(r.op, r.target, state);
    if (command.words.length > 0) await this.#judge(command.words, state);
  }

  async #checkRedirect(op: string, target: ShellWord, state: CheckState): Promise<void> {
    const isFd = (op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(target.value) && !target.dynamic;
    if (isFd || op === '<<<') return;
    if (target.dynamic) throw new Refusal(`a redirection target must be written literally, not "${target.raw}"`);
    if (/^\/dev\/(tcp|udp)\//.test(target.value) && this.#options.network !== true) {
      throw new Refusal(`network redirections (${target.value}) are not allowed`);
    }
    if (op === '<' && this.#unconfined !== undefined) return this.#unconfined.judgeWord(target, state.dirs, 'a redirection');
    if (!WRITES.has(op) && op !== '>&') return;
    if (DEVICES.has(target.value)) return;
    if (state.changedDir && !nodePath.isAbsolute(target.value)) {
      throw new Refusal(`after cd, redirections must use absolute paths ("${target.value}")`);
    }
    try {
      await this.#options.paths.resolve(nodePath.resolve(this.#options.cwd, target.value), 'write');
    } catch (err) {
      throw new Refusal(
        `the redirection ${op} ${target.value} writes outside the workspace: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** Judges one command by its words; wrappers are judged by the command they run. */
  async #judge(words: ShellWord[], state: CheckState): Promise<void> {
    const name = words[0]!;
    if (name.dynamic || name.raw.includes('$')) {
      throw new Refusal(`the command name must be written literally, not "${name.raw}"`);
    }
    const base = nodePath.posix.basename(name.value);
    const args = words.slice(1);
    const why = REFUSED[base];
    if (why !== undefined) throw new Refusal(`"${base}" ${why}`);
    if (CHANGES_DIR.has(base)) state.changedDir = true;
    if (DECLARE.has(base)) {
      if (args.some((a) => /^-\w*f/.test(a.value))) throw new Refusal(`"${base} -f" (functions) is refused`);
      for (const a of args) if (/^[A-Za-z_]\w*(\+?=|$)/.test(a.value)) checkAssignment(a);
    }
    const unwrap = TRANSPARENT_WRAPPERS[base];
    if (unwrap !== undefined) {
      this.#matchDeny(words);
      if (base === 'env') for (const a of envAssignments(args)) checkAssignment(a);
      const inner = unwrap(args);
      if (inner === undefined) return this.#match(words);
      if (inner.length === 0) return;
      return this.#judge(inner, state);
    }
    if (base === 'eval') {
      this.#matchDeny(words);
      if (this.#unconfined !== undefined) await this.#unconfined.judge(words, state.dirs);
      const dynamic = args.find((a) => a.dynamic);
      if (dynamic) throw new Refusal(`eval needs literal arguments to be checked, not "${dynamic.raw}"`);
      return this.#checkLine(args.map((a) => a.value).join(' '), { ...state, depth: state.depth + 1 });
    }
    this.#match(words);
    if (SHELLS.has(base)) {
      const run = shellInvocation(args);
      if (run === undefined) throw new Refusal(`"${base}" reading commands from its input cannot be checked; pass them with -c`);
      if ('script' in run && this.#unconfined !== undefined) {
        throw new Refusal(`"${base} -c" runs code that cannot be judged without the sandbox; run the commands directly`);
      }
      if ('script' in run) {
        if (run.script.dynamic) throw new Refusal(`the script of ${base} -c must be written literally`);
        return this.#checkLine(run.script.value, { ...state, depth: state.depth + 1 });
      }
    }
    if (this.#unconfined !== undefined) {
      if (NETWORK_PROGRAMS.has(base) && this.#options.network !== true) {
        throw new Refusal(
          `"${base}" uses the network, which is off (without the sandbox, network programs are refused unless network is allowed)`,
        );
      }
      await this.#unconfined.judge(words, state.dirs);
    }
    if (base === 'xargs') {
      const inner = xargsCommand(args);
      const run = inner.length > 0 ? inner : [{ ...unknownWord('echo'), dynamic: false }];
      return this.#judge([...run, unknownWord('{xargs input}')], state);
    }
    if (base === 'find') for (const inner of findExecCommands(args)) await this.#judge(inner, state);
  }

  /** Refuses a denied command (also matched with its path dropped: `/bin/rm` as `rm`). */
  #matchDeny(words: ShellWord[]): void {
    const texts = [commandText(words)];
    const name = words[0]!;
    if (name.value.includes('/')) texts.push(commandText([{ ...name, value: nodePath.posix.basename(name.value) }, ...words.slice(1)]));
    for (const rule of this.#deny) {
      if (texts.some((t) => rule.matches(t))) throw new Refusal(`\`${shortText(words)}\` is denied by the rule "${rule.source}"`);
    }
  }

  #match(words: ShellWord[]): void {
    this.#matchDeny(words);
    if (this.#allow.length === 0) return;
    const text = commandText(words);
    if (this.#allow.some((rule) => rule.matches(text))) return;
    throw new Refusal(
      `\`${shortText(words)}\` is not an allowed command (allowed: ${this.#allow.map((r) => JSON.stringify(r.source)).join(', ')})`,
    );
  }
}

class Refusal extends Error {}

function checkAssignment(word: ShellWord): void {
  const name = /^[A-Za-z_]\w*/.exec(word.value)?.[0] ?? word.value;
  if (DANGEROUS_VARIABLE.test(name)) throw new Refusal(`setting ${name} is refused (it changes which code runs)`);
}

function shortText(words: ShellWord[]): string {
  const text = words.map((w) => w.raw).join(' ');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
