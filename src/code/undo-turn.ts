import type { SessionEntryInput } from '../types/storage/sessions.js';
import type { CodeSessionEngine } from './code-session-engine.js';
import type { UndoReport } from './file-snapshots.js';

/** What `/undo` reverts: the files and the conversation of the last turn (`both`), or one of them. */
export type UndoScope = 'both' | 'files' | 'conversation';

/** The scopes, as `/undo` takes them. */
export const UNDO_SCOPES: readonly UndoScope[] = ['both', 'files', 'conversation'];

/** What `/undo` says: the files put back, and the shell commands of the turn, whose effects stay. */
export function undoText(report: UndoReport): string {
  const lines = [...report.restored.map((p) => `  restored ${p}`), ...report.removed.map((p) => `  removed ${p} (it was new)`)];
  const n = lines.length;
  const head = `Undid turn ${report.turn}: ${n === 0 ? 'no file edits to restore' : `${n} file${n === 1 ? '' : 's'}`}`;
  if (report.commands.length > 0) {
    lines.push(
      `  not reverted: what the turn's shell command${report.commands.length === 1 ? '' : 's'} changed (check with git status)`,
      ...report.commands.map((c) => `    $ ${c.split('\n')[0].slice(0, 100)}`),
    );
  }
  return [head, ...lines].join('\n');
}

const firstLine = (text: string): string => text.split('\n')[0].slice(0, 80);
const list = (paths: string[]): string => paths.join(', ');

/** The note the model reads with the next message: what was reverted, and what was not. */
function modelNote(scope: UndoScope, input: string | undefined, report: UndoReport, changed: string[]): string {
  const turn = input !== undefined ? `your last turn (my message "${firstLine(input)}")` : `turn ${report.turn}`;
  const files: string[] = [];
  if (report.restored.length > 0) files.push(`these files are back to their content before it: ${list(report.restored)}`);
  if (report.removed.length > 0) files.push(`these files it created were removed: ${list(report.removed)}`);
  const commands =
    report.commands.length > 0
      ? ` What its shell commands changed was not reverted (${report.commands.map((c) => `\`${firstLine(c)}\``).join(', ')}).`
      : '';
  if (scope === 'conversation')
    return `[corvid code] I removed ${turn} from the conversation.${changed.length > 0 ? ` The files it changed were NOT reverted and still hold its changes: ${list(changed)}.` : ''}`;
  if (scope === 'both')
    return `[corvid code] I undid ${turn}: it was removed from the conversation${files.length > 0 ? `, and ${files.join('; ')}` : ''}.${commands}`;
  return `[corvid code] I reverted your file changes of turn ${report.turn}: ${files.join('; ') || 'no file edits to restore'}.${commands} The conversation still shows those changes: read the files again before relying on them.`;
}

/**
 * `/undo [both|files|conversation]`. `files` restores the files of the latest turn that changed any (as before);
 * `conversation` removes the last turn from the conversation (the session continues as a rewound copy, the full
 * one stays in `/sessions`); `both` does both for the last turn. The model is told what was reverted with the
 * next message.
 */
export async function undoTurn(e: CodeSessionEngine, scope: UndoScope): Promise<void> {
  if (scope === 'files') {
    const report = await e.snapshots.undo();
    if (report === undefined) return e.notice('Nothing to undo: the agent has not changed files or run commands in this session.');
    e.addModelNote(modelNote(scope, undefined, report, []));
    return e.notice(`${undoText(report)}\n  the conversation is unchanged (/undo conversation removes the turn); the model is told`);
  }
  const entries = await e.store.sessions.entries(e.id);
  const users = entries.flatMap((entry, i) => (entry.message?.role === 'user' ? [i] : []));
  if (users.length === 0) return e.notice('Nothing to undo: the conversation is empty.');
  const cut = users[users.length - 1];
  const turn = users.length;
  const message = entries[cut].message;
  const input = message?.role === 'user' ? message.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
  const changed = await e.snapshots.changedIn(turn);
  const report: UndoReport =
    scope === 'both' ? await e.snapshots.undoTurn(turn) : { turn, restored: [], removed: [], commands: await e.snapshots.commandsIn(turn) };
  const old = e.id;
  const title = firstLine(input);
  const session = await e.store.sessions.create({
    agent: (await e.store.sessions.get(old))?.agent ?? 'corvid-code',
    activeAgent: e.agent.name,
    metadata: { ...((await e.store.sessions.get(old))?.metadata ?? {}), rewoundFrom: old },
  });
  const kept: SessionEntryInput[] = entries.slice(0, cut).map(({ type, message: m, agent, runId, usage, data }) => ({
    ...(type !== undefined ? { type } : {}),
    ...(m !== undefined ? { message: m } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(runId !== undefined ? { runId } : {}),
    ...(usage !== undefined ? { usage } : {}),
    ...(data !== undefined ? { data } : {}),
  }));
  if (kept.length > 0) await e.store.sessions.appendMany(session.id, kept);
  await e.snapshots.copyTo(session.id, turn);
  await e.switchSession(session.id, { turns: turn - 1, usage: e.usage });
  e.addModelNote(modelNote(scope, input, report, changed));
  const head = scope === 'both' ? undoText(report) : `Removed turn ${turn} ("${title}") from the conversation`;
  const tail =
    scope === 'both'
      ? `  removed turn ${turn} ("${title}") from the conversation`
      : changed.length > 0
        ? `  the files it changed keep its changes: ${list(changed)}`
        : '';
  e.notice([head, tail, `  the model is told; the full session stays as ${old} (/sessions)`].filter((l) => l !== '').join('\n'));
}
