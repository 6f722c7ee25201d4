/**
 * The user's own slash commands: Markdown files in `.corvid/commands/` of the project and in `~/.corvid/commands/`
 * (`$CORVID_HOME/commands/`), the file name being the command's name. Optional YAML front matter gives a
 * `description`, an `argument-hint` and a `model`; the body is the prompt, with `$ARGUMENTS` (all the arguments)
 * and `$1`…`$9` (one each) filled in. A project command hides a user command of the same name.
 */
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import nodePath from 'node:path';

import type { CodeCustomCommand } from './code-session-types.js';

/** A command read from its file. */
export interface CustomCommand extends CodeCustomCommand {
  file: string;
  /** The prompt, before the arguments are filled in. */
  body: string;
  /** A model for this command's turn (`provider:model` or a `models:` name). */
  model?: string;
}

/** Commands by name, and the files that could not be read (with why). */
export interface CustomCommands {
  commands: Map<string, CustomCommand>;
  problems: string[];
}

/** A command's name: the file name without `.md`, letters, digits, `-`, `_`, `.` and `:`. */
const NAME = /^[A-Za-z0-9][\w.:-]*$/;

/** The folders commands are read from, the user's first (the project's read later win). */
export function commandFolders(cwd: string, env: NodeJS.ProcessEnv): Array<{ dir: string; scope: 'project' | 'user' }> {
  const home = env.CORVID_HOME ? env.CORVID_HOME : nodePath.join(env.HOME || homedir(), '.corvid');
  return [
    { dir: nodePath.join(home, 'commands'), scope: 'user' },
    { dir: nodePath.join(cwd, '.corvid', 'commands'), scope: 'project' },
  ];
}

/** Reads the commands of the user and of the project in `cwd`. A missing folder has none. */
export async function loadCustomCommands(cwd: string, env: NodeJS.ProcessEnv): Promise<CustomCommands> {
  const commands = new Map<string, CustomCommand>();
  const problems: string[] = [];
  const { parse } = await import('yaml');
  for (const { dir, scope } of commandFolders(cwd, env)) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const entry of names.filter((n) => n.endsWith('.md')).sort()) {
      const name = entry.slice(0, -3);
      const file = nodePath.join(dir, entry);
      if (!NAME.test(name)) {
        problems.push(`${file}: a command name uses letters, digits, "-", "_", "." and ":"`);
        continue;
      }
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      try {
        commands.set(name.toLowerCase(), { name, scope, file, ...parseCommandFile(text, parse) });
      } catch (error) {
        problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { commands, problems };
}

/** The front matter and body of a command file. */
function parseCommandFile(text: string, parse: (yaml: string) => unknown): Omit<CustomCommand, 'name' | 'scope' | 'file'> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { body: text.trim() };
  const front = parse(m[1]) as Record<string, unknown> | null;
  if (front !== null && (typeof front !== 'object' || Array.isArray(front)))
    throw new Error('the front matter must be a YAML mapping (description:, argument-hint:, model:)');
  const str = (key: string): string | undefined => {
    const v = front?.[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new Error(`"${key}" in the front matter must be a string`);
    return v;
  };
  const description = str('description');
  const argumentHint = str('argument-hint');
  const model = str('model');
  return {
    body: text.slice(m[0].length).trim(),
    ...(description !== undefined ? { description } : {}),
    ...(argumentHint !== undefined ? { argumentHint } : {}),
    ...(model !== undefined ? { model } : {}),
  };
}

/**
 * The prompt of a command with its arguments: `$ARGUMENTS` is the whole argument text, `$1`…`$9` its words (quotes
 * group words). Without any placeholder in the body, arguments given are added at the end.
 */
export function expandCommand(command: Pick<CustomCommand, 'body'>, args: string): string {
  const words = splitArgs(args);
  const uses = /\$ARGUMENTS|\$[1-9]/.test(command.body);
  const body = command.body.replace(/\$ARGUMENTS|\$([1-9])/g, (all, n: string | undefined) =>
    n === undefined ? args : (words[Number(n) - 1] ?? ''),
  );
  return !uses && args !== '' ? `${body}\n\n${args}` : body;
}

/** Words of an argument text; "double" or 'single' quotes keep spaces in one word. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** A slash line split into its command name and argument text (`/fix 42 now` → `fix`, `42 now`). */
export function splitSlashLine(line: string): { name: string; args: string } {
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim());
  return { name: m?.[1] ?? '', args: (m?.[2] ?? '').trim() };
}
