import nodePath from 'node:path';

import { z } from 'zod';

import type { ShellToolOptions } from '../../tools/shell/shell-tool.js';
import { durationSchema, durationToMs } from '../duration-schema.js';

/** An entry of `tools:` with `type: shell` — the `bash` tool. */
export const shellToolEntrySchema = z
  .strictObject({
    type: z.literal('shell').describe('A `bash` tool: runs one command line per call, checked against allow/deny rules.'),
    cwd: z.string().min(1).optional().describe("Folder commands run in, relative to this config file. Default: the config file's folder."),
    workspace: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Folder commands may write to (redirections, the sandbox's writable folder), relative to this config file. Default: `cwd`.",
      ),
    read_roots: z
      .array(z.string().min(1))
      .optional()
      .describe('More folders commands may read (read-only in the sandbox), relative to this config file. Default: none.'),
    deny_paths: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Globs of files hidden from commands even in the workspace, added to .env, .env.*, *.pem, *.key, .ssh, .netrc, .git-credentials (a glob without / matches a name at any depth).',
      ),
    allow: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Patterns every command of a line must match, e.g. "npm run *" (`*` matches anything, each simple command of a pipeline or list is matched on its own). Without it every command not denied runs: an allow list is the safe choice.',
      ),
    deny: z.array(z.string().min(1)).optional().describe('Patterns that refuse a command, e.g. "rm -rf *"; deny wins over allow.'),
    timeout: durationSchema.optional().describe('Time limit per command, e.g. 60s (default); then the whole process group is killed.'),
    kill_grace: durationSchema.optional().describe('Time between SIGTERM and SIGKILL at the time limit. Default 2s.'),
    max_output_bytes: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Bytes of stdout and of stderr kept (head and tail, the middle elided). Default 30000.'),
    env: z
      .record(z.string(), z.string())
      .optional()
      .describe('Variables set for every command (use ${VAR} to take one from the environment).'),
    pass_env: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'More variables passed from the environment besides PATH, HOME, LANG, LC_*, TERM, TZ, USER…; names that look like secrets are refused.',
      ),
    isolation: z
      .enum(['auto', 'bwrap', 'none'])
      .optional()
      .describe(
        'auto (default): every command runs in a bubblewrap sandbox (only the workspace, the read roots and a read-only system visible, private /tmp and home, no network); without bubblewrap every command is refused. bwrap: the same, and a missing bubblewrap is a load error. none: UNCONFINED, commands run as Corvid with only the command checker in the way; use it only where a person approves each command.',
      ),
    network: z.boolean().optional().describe('Let sandboxed commands use the network (and /dev/tcp redirections). Default false.'),
    allow_substitution: z.boolean().optional().describe('Allow $(…), backticks and <(…) (their commands are checked too). Default false.'),
    allow_background: z.boolean().optional().describe('Allow background jobs (&). Default false.'),
    name: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,64}$/)
      .optional()
      .describe('Tool name. Default bash.'),
    description: z
      .string()
      .optional()
      .describe('Tool description for the model. Default: one naming the folder, the rules and the limits.'),
  })
  .describe('The built-in `bash` tool.');

/** A validated `type: shell` entry. */
export type ShellToolEntry = z.infer<typeof shellToolEntrySchema>;

/**
 * `shellTool()` options of an entry (paths resolved against the config file's folder `baseDir`);
 * `protectedPaths` (the running Corvid's config file and database) are hidden from commands.
 */
export function shellToolOptions(entry: ShellToolEntry, ctx: { baseDir: string; protectedPaths?: readonly string[] }): ShellToolOptions {
  const options: ShellToolOptions = { cwd: nodePath.resolve(ctx.baseDir, entry.cwd ?? '.') };
  if (entry.workspace !== undefined) options.workspace = nodePath.resolve(ctx.baseDir, entry.workspace);
  if (entry.read_roots !== undefined) options.readRoots = entry.read_roots.map((r) => nodePath.resolve(ctx.baseDir, r));
  if (entry.deny_paths !== undefined) options.denyPaths = entry.deny_paths;
  if (ctx.protectedPaths !== undefined && ctx.protectedPaths.length > 0) options.hiddenPaths = [...ctx.protectedPaths];
  if (entry.allow !== undefined) options.allow = entry.allow;
  if (entry.deny !== undefined) options.deny = entry.deny;
  if (entry.timeout !== undefined) options.timeoutMs = durationToMs(entry.timeout);
  if (entry.kill_grace !== undefined) options.killGraceMs = durationToMs(entry.kill_grace);
  if (entry.max_output_bytes !== undefined) options.maxOutputBytes = entry.max_output_bytes;
  if (entry.env !== undefined) options.env = entry.env;
  if (entry.pass_env !== undefined) options.passEnv = entry.pass_env;
  if (entry.isolation !== undefined) options.isolation = entry.isolation;
  if (entry.network !== undefined) options.network = entry.network;
  if (entry.allow_substitution !== undefined) options.allowSubstitution = entry.allow_substitution;
  if (entry.allow_background !== undefined) options.allowBackground = entry.allow_background;
  if (entry.name !== undefined) options.name = entry.name;
  if (entry.description !== undefined) options.description = entry.description;
  return options;
}
