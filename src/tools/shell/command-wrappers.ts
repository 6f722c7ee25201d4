import { ShellSyntaxRefusal, type ShellWord } from './shell-words.js';

/**
 * Commands that run another command given in their arguments without adding anything of their
 * own: the line is judged by the command they run (deny rules are also checked on the whole).
 * Each returns the words of the command it runs, `undefined` when it runs none (`command -v x`,
 * a bare `env` printing the environment), or throws for options it does not know.
 */
export const TRANSPARENT_WRAPPERS: Record<string, (args: ShellWord[]) => ShellWord[] | undefined> = {
  command: (args) => (args[0]?.value === '-v' || args[0]?.value === '-V' ? undefined : skipFlags(args, 'command', /^-p$/)),
  builtin: (args) => args,
  exec: (args) => skipFlags(args, 'exec', /^-[cl]+$/, /^-a$/),
  nohup: (args) => args,
  busybox: (args) => (args.length === 0 || args[0]!.value.startsWith('-') ? undefined : args),
  setsid: (args) => skipFlags(args, 'setsid', /^(-[fwc]+|--fork|--wait|--ctty)$/),
  stdbuf: (args) => skipFlags(args, 'stdbuf', /^(-[ioe]\S+|--(input|output|error)=.*)$/, /^-[ioe]$/),
  time: (args) => skipFlags(args, 'time', /^-p$/),
  nice: (args) => skipFlags(args, 'nice', /^(-\d+|-n\d+|--adjustment=.*)$/, /^-n$/),
  timeout: (args) => {
    const rest = skipFlags(
      args,
      'timeout',
      /^(--preserve-status|--foreground|-v|--verbose|-s\w+|-k.+|--signal=.*|--kill-after=.*)$/,
      /^-[sk]$/,
    );
    if (rest === undefined || rest.length === 0) return undefined;
    return rest.slice(1);
  },
  env: (args) => {
    const rest = skipFlags(args, 'env', /^(-i|--ignore-environment|-0|--null|-|--unset=.*|-u\w+)$/, /^-u$/);
    return rest === undefined || rest.length === 0 ? undefined : rest;
  },
};

/** Variable settings at the head of `env`'s arguments (`env A=1 B=2 cmd`) that it passes to the command. */
export function envAssignments(args: ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  for (const a of args) {
    if (a.value.startsWith('-')) continue;
    if (/^[A-Za-z_]\w*=/.test(a.value)) out.push(a);
    else break;
  }
  return out;
}

/**
 * Skips options of a wrapper: `flag` matches options standing alone, `withValue` options that
 * take the next word. An unknown option is refused (it could change what runs). For `env`, the
 * `NAME=value` words after the options are skipped too.
 */
function skipFlags(args: ShellWord[], wrapper: string, flag: RegExp, withValue?: RegExp): ShellWord[] | undefined {
  let i = 0;
  while (i < args.length && args[i]!.value.startsWith('-') && args[i]!.value !== '--') {
    const a = args[i]!;
    if (a.dynamic) throw new ShellSyntaxRefusal(`an option of ${wrapper} must be written literally, not "${a.raw}"`);
    if (withValue?.test(a.value)) i += 2;
    else if (flag.test(a.value)) i += 1;
    else throw new ShellSyntaxRefusal(`${wrapper} option "${a.value}" is not supported by this tool`);
  }
  if (args[i]?.value === '--') i++;
  if (wrapper === 'env') while (i < args.length && /^[A-Za-z_]\w*=/.test(args[i]!.value)) i++;
  return args.slice(i);
}

/** Shells whose `-c SCRIPT` is parsed and checked like the command line itself. */
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'rbash', 'ash']);

/**
 * What a shell invocation runs: `{ script }` for `-c SCRIPT`, `{ file }` for a script file,
 * `undefined` when it would read commands from its input (refused by the caller).
 */
export function shellInvocation(args: ShellWord[]): { script: ShellWord } | { file: ShellWord } | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) throw new ShellSyntaxRefusal(`an argument of a shell must be written literally, not "${a.raw}"`);
    if (a.value === '--') return args[i + 1] ? { file: args[i + 1]! } : undefined;
    if (/^-[a-zA-Z]*s/.test(a.value)) return undefined;
    if (/^[-+][a-zA-Z]*c[a-zA-Z]*$/.test(a.value)) {
      const script = args[i + 1];
      if (script === undefined) throw new ShellSyntaxRefusal('-c needs a script');
      return { script };
    }
    if (a.value === '-o' || a.value === '+o' || a.value === '-O' || a.value === '+O') {
      i++;
      continue;
    }
    if (a.value.startsWith('-') || a.value.startsWith('+')) continue;
    return { file: a };
  }
  return undefined;
}

/** The commands `find` runs: each `-exec`/`-execdir`/`-ok`/`-okdir … ;` or `… +`. */
export function findExecCommands(args: ShellWord[]): ShellWord[][] {
  const out: ShellWord[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!.value)) continue;
    const words: ShellWord[] = [];
    let j = i + 1;
    while (j < args.length && args[j]!.value !== ';' && args[j]!.value !== '+') words.push(args[j++]!);
    if (words.length === 0) throw new ShellSyntaxRefusal(`${args[i]!.value} needs a command`);
    out.push(words);
    i = j;
  }
  return out;
}

/** The command `xargs` runs (its default is `echo`), or throws for options it does not know. */
export function xargsCommand(args: ShellWord[]): ShellWord[] {
  let i = 0;
  const flag =
    /^(-0|-r|-t|-x|-p|--null|--no-run-if-empty|--verbose|--exit|--interactive|-[nLPsdEIa].+|--(max-args|max-lines|max-procs|max-chars|delimiter|eof|replace|arg-file)=.*)$/;
  while (i < args.length && args[i]!.value.startsWith('-')) {
    const a = args[i]!;
    if (a.dynamic) throw new ShellSyntaxRefusal(`an option of xargs must be written literally, not "${a.raw}"`);
    if (a.value === '--') {
      i++;
      break;
    }
    if (/^-[nLPsdEIa]$/.test(a.value)) i += 2;
    else if (flag.test(a.value)) i += 1;
    else throw new ShellSyntaxRefusal(`xargs option "${a.value}" is not supported by this tool`);
  }
  return args.slice(i);
}
