import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import nodePath from 'node:path';

import { z } from 'zod';

import { tool } from '../../core/tool.js';
import { CommandRefusedError } from '../../errors/command-refused-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RequireApproval, Tool } from '../../types/tool.js';
import { PathPolicy } from '../path-policy.js';
import { findBwrap, probeBwrap } from './bwrap-sandbox.js';
import { CommandPolicy } from './command-policy.js';
import { warmUpShellParser } from './real-parse.js';
import { runProcess } from './run-process.js';
import { sandboxArgs, type SandboxView } from './sandbox-mounts.js';
import { checkPassEnv, scrubEnv } from './scrub-env.js';

/** Options for `shellTool()`. */
export interface ShellToolOptions {
  /** Folder commands run in. Default: the current directory. */
  cwd?: string;
  /** The folder commands may write to (redirections; the sandbox's writable bind). Default: `cwd`. */
  workspace?: string;
  /** More folders commands may read (shown read-only in the sandbox besides the system). Default: none. */
  readRoots?: string[];
  /**
   * Globs of files hidden from commands even inside the workspace and the read roots, added to
   * `DEFAULT_DENIED_PATHS` (`.env`, `.env.*`, `*.pem`, `*.key`, `.ssh`, …). Same syntax as the file
   * tools' `deny`: a glob without `/` matches a name at any depth.
   */
  denyPaths?: string[];
  /** Files and folders hidden wherever they are (the runtime passes its config file and database). */
  hiddenPaths?: string[];
  /**
   * Patterns a simple command must match (`"npm run *"`, `"git diff*"`); every command of the
   * line must match one. Absent or empty: every command not denied runs — an allow list is the safe choice.
   */
  allow?: string[];
  /** Patterns that refuse a command; deny wins over allow. */
  deny?: string[];
  /** Time limit per command in ms (the whole process group is killed). Default 60 000. */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL. Default 2 000 ms. */
  killGraceMs?: number;
  /** Bytes of stdout and of stderr kept (head and tail; the middle is elided). Default 30 000. */
  maxOutputBytes?: number;
  /** Variables set for every command (added to the scrubbed environment). */
  env?: Record<string, string>;
  /** More variables passed from this process (besides PATH, HOME, LANG, LC_*, TERM, TZ, USER…). Names that look like secrets are refused. */
  passEnv?: string[];
  /**
   * `auto` (default): every command runs in a bubblewrap sandbox, and is refused when bubblewrap is
   * missing or cannot start one; `bwrap`: the same, and a missing bubblewrap is an error when the
   * tool is created; `none`: UNCONFINED — commands run as the Corvid process, with only the command
   * checker in the way. Use `none` only where a person approves each command.
   */
  isolation?: 'auto' | 'bwrap' | 'none';
  /** Let sandboxed commands use the network (and allow `/dev/tcp` redirections). Default `false`. */
  network?: boolean;
  /** Allow `$(…)`, backticks and process substitution (their commands are checked too). Default `false`. */
  allowSubstitution?: boolean;
  /** Allow background jobs (`&`). Default `false`. */
  allowBackground?: boolean;
  /** Tool name. Default `bash`. */
  name?: string;
  /** Tool description for the model (a default one names the folder, the rules and the limits). */
  description?: string;
  /**
   * Ask a human before each command: `true`, a prompt text (`{command}` is filled in) or a function.
   * The approver also sees the tool's preview: `$ <command>`, the folder, and the refusal when the rules refuse it.
   */
  requireApproval?: RequireApproval<ShellToolInput>;
  /** Receives warnings (isolation `auto` without a working bubblewrap: every command is refused). Default: `process.emitWarning`. */
  onWarning?: (message: string) => void;
}

/** Arguments of the `bash` tool. */
export interface ShellToolInput {
  command: string;
}

/** What a `bash` call returns (also what `tool_result` events and traces show). */
export interface ShellToolResult {
  command: string;
  cwd: string;
  /** Exit code; `null` when a signal ended the command. */
  exitCode: number | null;
  /** The signal that ended it, when one did. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Part of the output was elided (see the marker in the text). */
  truncated: boolean;
  /** Killed by the time limit. */
  timedOut: boolean;
  /** Killed because it printed far more than the cap. */
  outputLimitExceeded: boolean;
  /** `bwrap` when the command ran in the sandbox, `none` when unconfined. */
  sandbox: 'bwrap' | 'none';
  durationMs: number;
}

const DEFAULTS = { timeoutMs: 60_000, killGraceMs: 2_000, maxOutputBytes: 30_000 };
/** Output past this multiple of the cap stops being read and the command is killed. */
const STOP_READING_FACTOR = 20;

/** Files hidden from commands by default, even inside the workspace (globs, as the file tools' `deny`). */
export const DEFAULT_DENIED_PATHS = ['.env', '.env.*', '*.pem', '*.key', '.ssh', '.netrc', '.git-credentials'] as const;

/**
 * The `bash` tool: runs one command line after checking every command of it against
 * allow/deny rules on the parsed line, with a scrubbed environment, a time limit, capped output
 * and a bubblewrap sandbox that shows only the workspace, the read roots and a minimal read-only
 * system, without the network. Without bubblewrap every command is refused, unless `isolation: 'none'`.
 * @example
 * const sh = shellTool({ cwd: './project', allow: ['npm test', 'npm run *', 'git diff*'], timeoutMs: 60_000 });
 * const agent = new Agent({ name: 'dev', model, tools: [sh] });
 */
export function shellTool(options: ShellToolOptions = {}): Tool<ShellToolInput, ShellToolResult> {
  const setup = shellSetup(options);
  const { cwd, isolation, policy } = setup;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULTS.maxOutputBytes;
  const sandbox = sandboxGate(options, setup);
  return tool<ShellToolInput, ShellToolResult>({
    name: options.name ?? 'bash',
    description: options.description ?? describe(options, cwd, timeoutMs),
    input: z.object({ command: z.string().min(1).describe('One bash command line, run in the working folder') }),
    ...(options.requireApproval !== undefined ? { requireApproval: options.requireApproval } : {}),
    preview: async ({ command }) => {
      const verdict = await sandbox(command)
        .then(() => policy.check(command))
        .then(
          () => undefined,
          (err: Error) => err.message,
        );
      return `$ ${command}\n(in ${cwd}${isolation === 'none' ? ', unconfined' : ''})${verdict !== undefined ? `\n${verdict}` : ''}`;
    },
    execute: async ({ command }, ctx) => {
      const bwrap = await sandbox(command);
      await policy.check(command);
      const bash = ['bash', '--noprofile', '--norc', '-c', command];
      const outcome = await runProcess({
        file: bwrap ?? 'bash',
        args: bwrap !== undefined ? [...(await sandboxArgs(setup.view)), ...bash] : bash.slice(1),
        cwd,
        env: scrubEnv({ parent: process.env, passEnv: options.passEnv, env: options.env }),
        timeoutMs,
        killGraceMs: options.killGraceMs ?? DEFAULTS.killGraceMs,
        maxOutputBytes,
        stopReadingAtBytes: maxOutputBytes * STOP_READING_FACTOR,
        signal: ctx.signal,
      });
      return {
        command,
        cwd,
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        truncated: outcome.truncated,
        timedOut: outcome.timedOut,
        outputLimitExceeded: outcome.outputLimitExceeded,
        sandbox: bwrap !== undefined ? 'bwrap' : 'none',
        durationMs: outcome.durationMs,
      };
    },
  });
}

interface ShellSetup {
  cwd: string;
  isolation: 'auto' | 'bwrap' | 'none';
  bwrap: string | undefined;
  policy: CommandPolicy;
  view: SandboxView;
}

/** Checks the options and builds the command policy and the sandbox's view of the file system. */
function shellSetup(options: ShellToolOptions): ShellSetup {
  const cwd = realDir(options.cwd ?? process.cwd(), 'cwd');
  const workspace = realDir(options.workspace ?? cwd, 'workspace');
  const readRoots = (options.readRoots ?? []).map((r, i) => realDir(r, `readRoots[${i}]`));
  const isolation = options.isolation ?? 'auto';
  if (!['auto', 'bwrap', 'none'].includes(isolation))
    throw new ValidationError(`shell tool isolation must be auto, bwrap or none, not ${JSON.stringify(isolation)}`);
  checkPassEnv(options.passEnv ?? []);
  const bwrap = isolation === 'none' ? undefined : findBwrap();
  if (isolation === 'bwrap' && bwrap === undefined) {
    throw new ValidationError(
      'shell tool isolation "bwrap" needs bubblewrap, and the bwrap program is not installed (apt-get install bubblewrap); isolation "none" runs commands unconfined',
    );
  }
  const paths = new PathPolicy({
    roots: [{ path: workspace, mode: 'read-write' }, ...readRoots.map((path) => ({ path, mode: 'read-only' as const }))],
    deny: [...DEFAULT_DENIED_PATHS, ...(options.denyPaths ?? [])],
  });
  const hidden = (options.hiddenPaths ?? []).flatMap((p) => realOrSelf(nodePath.resolve(p)));
  const policy = new CommandPolicy({
    allow: options.allow,
    deny: options.deny,
    cwd,
    allowSubstitution: options.allowSubstitution,
    allowBackground: options.allowBackground,
    network: options.network,
    paths,
    hiddenPaths: hidden,
    sandboxed: isolation !== 'none',
  });
  warmUpShellParser();
  const home = homedir();
  const view: SandboxView = {
    workspace,
    readRoots,
    cwd,
    network: options.network === true,
    paths,
    hidden,
    ...(home !== '' ? { home: realOrSelf(home).at(-1)! } : {}),
  };
  return { cwd, isolation, bwrap, policy, view };
}

/**
 * Whether a command may run, and where: the bwrap program, or `undefined` to run unconfined
 * (`isolation: 'none'` only). Throws `CommandRefusedError` when the sandbox is needed and missing.
 */
function sandboxGate(options: ShellToolOptions, setup: ShellSetup): (command: string) => Promise<string | undefined> {
  const name = options.name ?? 'bash';
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'CorvidShellWarning'));
  let probe: Promise<string | undefined> | undefined;
  let warned = false;
  return async (command) => {
    if (setup.isolation === 'none') return undefined;
    const problem =
      setup.bwrap === undefined
        ? 'bubblewrap is not installed here'
        : await (probe ??= probeBwrap(setup.bwrap, { ...setup.view, paths: undefined }));
    if (problem === undefined) return setup.bwrap;
    const why = setup.bwrap === undefined ? problem : `bubblewrap cannot start a sandbox here (${problem})`;
    if (!warned) {
      warned = true;
      warn(
        `shell tool "${name}": ${why}, so every command is refused; install bubblewrap (apt-get install bubblewrap) or set isolation: none to run commands unconfined`,
      );
    }
    throw new CommandRefusedError(
      `Command refused: this tool runs commands only in a bubblewrap sandbox, and ${why}. The operator can install bubblewrap (apt-get install bubblewrap), or set isolation: none in the shell tool's options to run commands unconfined (only where a person approves each command).`,
      { command },
    );
  };
}

/** The path and, when it differs, its real path (an entry that does not exist is kept as given). */
function realOrSelf(path: string): string[] {
  try {
    const real = realpathSync(path);
    return real === path ? [path] : [path, real];
  } catch {
    return [path];
  }
}

function realDir(path: string, field: string): string {
  try {
    return realpathSync(nodePath.resolve(path));
  } catch (err) {
    throw new ValidationError(`shell tool ${field}: folder ${JSON.stringify(path)} does not exist`, { cause: err });
  }
}

function describe(options: ShellToolOptions, cwd: string, timeoutMs: number): string {
  const parts = [`Run one bash command line in ${cwd} and get its exit code, stdout and stderr.`];
  if (options.allow !== undefined && options.allow.length > 0)
    parts.push(`Allowed commands (each command of the line must match; * matches anything): ${options.allow.join(', ')}.`);
  if (options.deny !== undefined && options.deny.length > 0) parts.push(`Denied: ${options.deny.join(', ')}.`);
  parts.push(
    `Time limit ${Math.round(timeoutMs / 1000)} s; no background jobs${options.allowSubstitution === true ? '' : ', no command substitution'}; redirections may only write inside the working folder.`,
    options.isolation === 'none'
      ? 'Arguments naming files outside the working folder, and inline code (bash -c, eval, python -c, node -e …), are refused.'
      : 'Commands run in a sandbox that shows only the working folder and a read-only system, without network.',
  );
  return parts.join(' ');
}
