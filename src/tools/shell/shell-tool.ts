import { realpathSync } from 'node:fs';
import nodePath from 'node:path';

import { z } from 'zod';

import { tool } from '../../core/tool.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RequireApproval, Tool } from '../../types/tool.js';
import { PathPolicy } from '../path-policy.js';
import { bwrapArgs, findBwrap, probeBwrap, type SandboxOptions } from './bwrap-sandbox.js';
import { CommandPolicy } from './command-policy.js';
import { warmUpShellParser } from './real-parse.js';
import { runProcess } from './run-process.js';
import { checkPassEnv, scrubEnv } from './scrub-env.js';

/** Options for `shellTool()`. */
export interface ShellToolOptions {
  /** Folder commands run in. Default: the current directory. */
  cwd?: string;
  /** The folder commands may write to (redirections; the sandbox's writable bind). Default: `cwd`. */
  workspace?: string;
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
   * `auto` (default): in a bubblewrap sandbox when `bwrap` is installed, else unconfined with a
   * warning; `bwrap`: always sandboxed (an error when bubblewrap is missing); `none`: unconfined.
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
  /** Receives warnings (isolation `auto` without bubblewrap). Default: `process.emitWarning`. */
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

/**
 * The `bash` tool: runs one command line after checking every command of it against
 * allow/deny rules on the parsed line, with a scrubbed environment, a time limit, capped output
 * and, when bubblewrap is installed, a sandbox (read-only system, writable workspace, no network).
 * @example
 * const sh = shellTool({ cwd: './project', allow: ['npm test', 'npm run *', 'git diff*'], timeoutMs: 60_000 });
 * const agent = new Agent({ name: 'dev', model, tools: [sh] });
 */
export function shellTool(options: ShellToolOptions = {}): Tool<ShellToolInput, ShellToolResult> {
  const cwd = realDir(options.cwd ?? process.cwd(), 'cwd');
  const workspace = realDir(options.workspace ?? cwd, 'workspace');
  const isolation = options.isolation ?? 'auto';
  if (!['auto', 'bwrap', 'none'].includes(isolation))
    throw new ValidationError(`shell tool isolation must be auto, bwrap or none, not ${JSON.stringify(isolation)}`);
  checkPassEnv(options.passEnv ?? []);
  const bwrap = isolation === 'none' ? undefined : findBwrap();
  if (isolation === 'bwrap' && bwrap === undefined) {
    throw new ValidationError(
      'shell tool isolation "bwrap" needs bubblewrap, and the bwrap program is not installed (apt-get install bubblewrap); use isolation "auto" or "none" to run unconfined',
    );
  }
  const policy = new CommandPolicy({
    allow: options.allow,
    deny: options.deny,
    cwd,
    allowSubstitution: options.allowSubstitution,
    allowBackground: options.allowBackground,
    network: options.network,
    paths: new PathPolicy({ roots: [{ path: workspace, mode: 'read-write' }] }),
  });
  warmUpShellParser();
  const sandbox: SandboxOptions = { workspace, cwd, network: options.network === true };
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'CorvidShellWarning'));
  let sandboxReady: Promise<string | undefined> | undefined;
  const useSandbox = async (): Promise<string | undefined> => {
    if (bwrap === undefined) return undefined;
    const problem = await (sandboxReady ??= probeBwrap(bwrap, sandbox));
    if (problem === undefined) return bwrap;
    if (isolation === 'bwrap')
      throw new ValidationError(`shell tool isolation "bwrap": bubblewrap cannot start a sandbox here: ${problem}`);
    return undefined;
  };
  let warned = false;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULTS.maxOutputBytes;
  return tool<ShellToolInput, ShellToolResult>({
    name: options.name ?? 'bash',
    description: options.description ?? describe(options, cwd, timeoutMs),
    input: z.object({ command: z.string().min(1).describe('One bash command line, run in the working folder') }),
    ...(options.requireApproval !== undefined ? { requireApproval: options.requireApproval } : {}),
    preview: async ({ command }) => {
      const verdict = await policy.check(command).then(
        () => undefined,
        (err: Error) => err.message,
      );
      return `$ ${command}\n(in ${cwd}${isolation === 'none' ? ', unconfined' : ''})${verdict !== undefined ? `\n${verdict}` : ''}`;
    },
    execute: async ({ command }, ctx) => {
      await policy.check(command);
      const sandboxed = isolation === 'none' ? undefined : await useSandbox();
      if (sandboxed === undefined && isolation === 'auto' && !warned) {
        warned = true;
        warn(
          `shell tool "${options.name ?? 'bash'}": bubblewrap is not available, commands run unconfined (install bubblewrap or set isolation: none to silence this)`,
        );
      }
      const bash = ['bash', '--noprofile', '--norc', '-c', command];
      const outcome = await runProcess({
        file: sandboxed ?? 'bash',
        args: sandboxed !== undefined ? [...bwrapArgs(sandbox), ...bash] : bash.slice(1),
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
        sandbox: sandboxed !== undefined ? 'bwrap' : 'none',
        durationMs: outcome.durationMs,
      };
    },
  });
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
  );
  return parts.join(' ');
}
