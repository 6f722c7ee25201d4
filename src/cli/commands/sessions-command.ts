import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';

import { CorvidError } from '../../errors/corvid-error.js';
import { StorageError } from '../../errors/storage-error.js';
import type { Session, SessionEntry } from '../../types/storage/sessions.js';
import type { Store } from '../../types/storage/store.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { type CliStore, formatTime, intFlag, openCliStore, stringFlag } from '../cli-store.js';
import { colorsFor } from '../colors.js';
import { truncate } from '../format.js';
import { renderTranscript } from '../session-transcript.js';
import { searchModeFlag, searchSessions } from './sessions-search.js';

const SUBCOMMANDS = ['list', 'search', 'show', 'delete', 'export'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** The format `corvid sessions export` writes. */
export const SESSION_EXPORT_FORMAT = 'corvid.session';

/** A missing session: exit 1 with one line. */
function notFound(id: string, location: string): StorageError {
  return new StorageError(`Session "${id}" not found (in ${location})`, { kind: 'not_found', location });
}

async function requireSession(cli: CliStore, id: string): Promise<{ store: Store; session: Session }> {
  const session = cli.store ? await cli.store.sessions.get(id) : undefined;
  if (!cli.store || !session) throw notFound(id, cli.location);
  return { store: cli.store, session };
}

/** Message counts of a page of sessions (one query per session). */
async function messageCounts(store: Store, sessions: Session[]): Promise<number[]> {
  return Promise.all(sessions.map((s) => store.sessions.countMessages(s.id)));
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function list(context: CliContext, cli: CliStore): Promise<number> {
  const v = context.values;
  const limit = intFlag(v.limit, 'limit', 'sessions', { min: 1, max: 1000 }) ?? 20;
  const filter = { agent: stringFlag(v.agent), userId: stringFlag(v.user), cursor: stringFlag(v.cursor), limit };
  const page = cli.store ? await cli.store.sessions.list(filter) : { sessions: [] as Session[] };
  const counts = cli.store ? await messageCounts(cli.store, page.sessions) : [];
  if (v.json) {
    const sessions = page.sessions.map((s, i) => ({ ...sessionJson(s), messages: counts[i] }));
    context.stdout.write(`${JSON.stringify({ sessions, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, null, 2)}\n`);
    return EXIT.ok;
  }
  const c = colorsFor(context.stdout, { ...context.globals, env: context.env });
  if (page.sessions.length === 0) {
    context.stderr.write(`No sessions${filter.agent || filter.userId ? ' match' : ''} in ${cli.location}\n`);
    return EXIT.ok;
  }
  const rows = [
    ['ID', 'AGENT', 'ACTIVE', 'USER', 'MESSAGES', 'UPDATED (UTC)'],
    ...page.sessions.map((s, i) => [
      truncate(s.id, 40),
      s.agent,
      s.activeAgent,
      s.userId ?? '-',
      String(counts[i]),
      formatTime(s.updatedAt),
    ]),
  ];
  const [head, ...body] = table(rows).split('\n');
  context.stdout.write(`${c.bold(head!)}\n${body.join('\n')}\n`);
  if (page.nextCursor)
    context.stderr.write(
      c.dim(`More sessions: corvid sessions list --cursor ${page.nextCursor}${limit !== 20 ? ` --limit ${limit}` : ''}\n`),
    );
  return EXIT.ok;
}

function sessionJson(s: Session): Record<string, unknown> {
  return { ...s, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString() };
}

function entryJson(e: SessionEntry): Record<string, unknown> {
  return { ...e, createdAt: e.createdAt.toISOString() };
}

/**
 * A session and all its entries as JSON text. Values plain JSON cannot carry (bytes of file
 * parts, URLs, dates inside messages) are tagged (`{"$corvid":"bytes","base64":…}`), as in the store.
 */
export async function exportSessionJson(store: Store, session: Session): Promise<string> {
  const { encodeJson } = await import('../../storage/shared/json-codec.js');
  const entries = await store.sessions.entries(session.id);
  const doc = {
    format: SESSION_EXPORT_FORMAT,
    version: 1,
    exportedAt: new Date().toISOString(),
    session: sessionJson(session),
    entries: entries.map(entryJson),
  };
  return `${JSON.stringify(JSON.parse(encodeJson(doc)), null, 2)}\n`;
}

async function show(context: CliContext, cli: CliStore, id: string): Promise<number> {
  const { store, session } = await requireSession(cli, id);
  if (context.values.json) {
    context.stdout.write(await exportSessionJson(store, session));
    return EXIT.ok;
  }
  const entries = await store.sessions.entries(id);
  context.stdout.write(renderTranscript(session, entries, colorsFor(context.stdout, { ...context.globals, env: context.env })));
  return EXIT.ok;
}

async function confirm(context: CliContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: context.stdin, output: context.stderr, terminal: true });
  try {
    const answer = await rl.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

async function remove(context: CliContext, cli: CliStore, id: string): Promise<number> {
  const { store, session } = await requireSession(cli, id);
  if (!context.values.yes) {
    if (!context.stdin.isTTY)
      throw new UsageError(`not deleting session "${id}" without confirmation: pass --yes (stdin is not a terminal)`, 'sessions');
    const messages = (await store.sessions.entries(id, { types: ['message'] })).length;
    const ok = await confirm(
      context,
      `Delete session "${id}" (agent ${session.agent}, ${messages} messages) with its state, artifacts and runs? [y/N] `,
    );
    if (!ok) {
      context.stderr.write('Not deleted.\n');
      return EXIT.failure;
    }
  }
  if (!(await store.sessions.delete(id))) throw notFound(id, cli.location);
  await cli.dropConversationVectors?.(id);
  context.stderr.write(`Deleted session "${id}".\n`);
  return EXIT.ok;
}

async function exportSession(context: CliContext, cli: CliStore, id: string): Promise<number> {
  const { store, session } = await requireSession(cli, id);
  const text = await exportSessionJson(store, session);
  const out = stringFlag(context.values.output);
  if (out === undefined || out === '-') {
    context.stdout.write(text);
    return EXIT.ok;
  }
  // Written next to the target and renamed: an interrupted export never leaves half a file.
  const file = resolve(context.cwd, out);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? `the directory ${dirname(file)} does not exist` : (err as Error).message;
    throw new CorvidError(`Cannot write the export to ${out}: ${reason}`, { code: 'validation_failed', cause: err });
  }
  context.stderr.write(`Exported session "${id}" to ${out}\n`);
  return EXIT.ok;
}

/** `corvid sessions list|search|show|delete|export`. */
export async function sessionsCommand(context: CliContext): Promise<number> {
  const [sub, id, ...extra] = context.positionals;
  if (sub === undefined) throw new UsageError(`missing subcommand: corvid sessions ${SUBCOMMANDS.join('|')}`, 'sessions');
  if (!(SUBCOMMANDS as readonly string[]).includes(sub))
    throw new UsageError(`unknown subcommand "${sub}": use ${SUBCOMMANDS.join(', ')}`, 'sessions');
  const command = sub as Subcommand;
  if (command === 'list') {
    if (id !== undefined) throw new UsageError(`Unexpected argument "${id}" for "corvid sessions list"`, 'sessions');
  } else if (command === 'search') {
    if (!id?.trim()) throw new UsageError('missing query: corvid sessions search <query>', 'sessions');
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}": quote a query of several words`, 'sessions');
    searchModeFlag(context.values.mode);
  } else {
    if (id === undefined || id === '') throw new UsageError(`missing session id: corvid sessions ${command} <id>`, 'sessions');
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" for "corvid sessions ${command}"`, 'sessions');
  }
  const cli = await openCliStore(context, { create: false, vectorSearch: command === 'search', conversationVectors: command === 'delete' });
  try {
    switch (command) {
      case 'list':
        return await list(context, cli);
      case 'search':
        return await searchSessions(context, cli, id!);
      case 'show':
        return await show(context, cli, id!);
      case 'delete':
        return await remove(context, cli, id!);
      case 'export':
        return await exportSession(context, cli, id!);
      default: {
        const never: never = command;
        throw new UsageError(`unknown subcommand "${String(never)}"`, 'sessions');
      }
    }
  } finally {
    await cli.close();
  }
}
