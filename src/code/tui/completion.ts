/**
 * Completion in the input box: `/command` names (a hint list while typing, Tab completes) and `@path` mentions
 * (Tab asks the session for candidates).
 */
import { CODE_SLASH_COMMANDS, type CodeCustomCommand } from '../code-session-types.js';

/** One line of help per slash command (the hint list and `/help`). */
export const SLASH_COMMAND_HELP: Record<(typeof CODE_SLASH_COMMANDS)[number], string> = {
  help: 'list commands and keys',
  model: 'show or switch the model',
  mode: 'show or switch the mode (default, auto-edit, plan, yolo, ask)',
  plan: 'plan first: the model reads and plans, you approve the plan',
  clear: 'start a new conversation',
  compact: 'compact the context now',
  undo: 'undo the last turn: both (files and conversation), files or conversation',
  diff: 'show everything changed this session',
  sessions: "list this folder's sessions",
  resume: 'continue a session',
  cost: 'tokens and cost of the session',
  init: 'write AGENTS.md for this project',
  mcp: 'MCP servers: state, tools (reconnect [id])',
  exit: 'quit',
};

/**
 * Slash commands matching the value being typed (`/co` → compact, cost), the user's own (`custom`) after the
 * built-in ones, or none once a space is typed.
 */
export function slashHints(value: string, custom: readonly CodeCustomCommand[] = []): string[] {
  if (!value.startsWith('/') || /\s/.test(value)) return [];
  const prefix = value.slice(1).toLowerCase();
  const builtIn = CODE_SLASH_COMMANDS.filter((c) => c.startsWith(prefix));
  const own = custom
    .map((c) => c.name)
    .filter((n) => n.toLowerCase().startsWith(prefix) && !(builtIn as string[]).includes(n.toLowerCase()));
  return [...builtIn, ...own].map((c) => `/${c}`);
}

/** The help of a hinted command (`/name`): a built-in one's, or a custom one's description and argument hint. */
export function slashHelp(hint: string, custom: readonly CodeCustomCommand[] = []): string {
  const name = hint.slice(1);
  if (Object.prototype.hasOwnProperty.call(SLASH_COMMAND_HELP, name)) return SLASH_COMMAND_HELP[name as keyof typeof SLASH_COMMAND_HELP];
  const c = custom.find((x) => x.name === name);
  return [c?.argumentHint, c?.description ?? `(${c?.scope ?? 'custom'} command)`].filter(Boolean).join(' ');
}

/** What `/undo <what>` takes, shown while its argument is typed. */
export const UNDO_HINT = 'both: files and conversation (default) · files: only the files · conversation: only the turn';

/** The `@mention` the cursor is at the end of: its start offset and the path typed so far. */
export function mentionAt(value: string, cursor: number): { start: number; prefix: string } | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(value.slice(0, cursor));
  if (!m) return undefined;
  return { start: cursor - m[1].length - 1, prefix: m[1] };
}

/** The longest prefix all `candidates` share. */
export function commonPrefix(candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  let prefix = candidates[0];
  for (const c of candidates) while (!c.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** What Tab does to `value`: the completed value and cursor, and the candidates to list when several remain. */
export interface Completion {
  value: string;
  cursor: number;
  candidates: string[];
}

/**
 * Completes the slash command or the `@path` at the cursor. `paths` gives the candidates of a mention prefix
 * (the session's `completePath`). Returns `undefined` when there is nothing to complete.
 */
export async function complete(
  value: string,
  cursor: number,
  paths: (prefix: string) => Promise<string[]>,
  custom: readonly CodeCustomCommand[] = [],
): Promise<Completion | undefined> {
  const hints = slashHints(value, custom);
  if (hints.length > 0 && cursor === value.length) {
    const done = hints.length === 1 ? `${hints[0]} ` : commonPrefix(hints);
    return { value: done, cursor: done.length, candidates: hints.length === 1 ? [] : hints };
  }
  const mention = mentionAt(value, cursor);
  if (!mention) return undefined;
  const candidates = await paths(mention.prefix);
  if (candidates.length === 0) return { value, cursor, candidates: [] };
  const single = candidates.length === 1;
  const insert = single ? candidates[0] + (candidates[0].endsWith('/') ? '' : ' ') : commonPrefix(candidates);
  const text = insert.length >= mention.prefix.length ? insert : mention.prefix;
  const next = value.slice(0, mention.start + 1) + text + value.slice(cursor);
  return { value: next, cursor: mention.start + 1 + text.length, candidates: single ? [] : candidates };
}
