import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import nodePath from 'node:path';

import { unifiedDiff } from '../tools/files/unified-diff.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';

/** A file's content before a turn changed it (`undefined`: the file did not exist). */
interface Snapshot {
  /** Path relative to the session's folder. */
  path: string;
  turn: number;
  /** Base64 of the prior content; absent when the file did not exist. */
  content?: string;
}

/** A shell command the agent ran in a turn (its effects on files are not recorded). */
interface ShellRecord {
  turn: number;
  command: string;
}

const PREFIX = 'snapshot:';
const SHELL_PREFIX = 'shell:';

/** What `/undo` did. */
export interface UndoReport {
  turn: number;
  /** Files written back to their prior content. */
  restored: string[];
  /** Files the turn had created, removed again. */
  removed: string[];
  /** Shell commands the turn ran (distinct, in order): what they changed is not reverted. */
  commands: string[];
}

/**
 * Prior contents of the files the agent edits, per turn, stored as artifacts of the session (so
 * they survive the process: `/undo` works after `--resume`). The first snapshot of a file in the
 * session is its state at the session's start (for `/diff`). Shell commands are recorded by their
 * command line only: what a command changes cannot be known before it runs, so `/undo` names the
 * commands whose effects it does not revert.
 */
export class FileSnapshots {
  private readonly store: Store;
  private readonly cwd: string;
  private sessionId: string;
  /** The turn edits are recorded under. */
  turn = 0;
  /** `turn:path` already recorded (only the first edit of a file in a turn counts). */
  private readonly recorded = new Set<string>();
  private commandCount = 0;

  constructor(options: { store: Store; cwd: string; sessionId: string }) {
    this.store = options.store;
    this.cwd = options.cwd;
    this.sessionId = options.sessionId;
  }

  /** Follows the session (after `/clear`, `/resume`, `/compact`). */
  setSession(sessionId: string): void {
    this.sessionId = sessionId;
    this.recorded.clear();
  }

  /** The path relative to the folder, or `undefined` when it is outside it. */
  relative(path: string): string | undefined {
    const rel = nodePath.relative(this.cwd, nodePath.resolve(this.cwd, path));
    if (rel === '' || rel.startsWith('..') || nodePath.isAbsolute(rel)) return undefined;
    return rel.split(nodePath.sep).join('/');
  }

  /** Records the file's current content (or absence) for the current turn, once per turn, before it is changed. */
  async record(path: string): Promise<void> {
    const rel = this.relative(path);
    if (rel === undefined) return;
    const key = `${this.turn}:${rel}`;
    if (this.recorded.has(key)) return;
    const prior = await readFile(nodePath.join(this.cwd, rel)).catch(() => undefined);
    const snap: Snapshot = { path: rel, turn: this.turn, ...(prior !== undefined ? { content: prior.toString('base64') } : {}) };
    await this.store.artifacts.save(this.sessionId, {
      name: nameOf(this.turn, rel),
      mimeType: 'application/json',
      data: JSON.stringify(snap),
    });
    this.recorded.add(key);
  }

  /** Files changed by `turn` (relative paths). */
  async changedIn(turn: number): Promise<string[]> {
    return (await this.all()).filter((s) => s.turn === turn).map((s) => s.path);
  }

  /** Records a shell command the agent runs in the current turn (before it runs). */
  async recordCommand(command: string): Promise<void> {
    const record: ShellRecord = { turn: this.turn, command };
    const seq = `${Date.now().toString(36)}${String(++this.commandCount).padStart(4, '0')}`;
    await this.store.artifacts.save(this.sessionId, {
      name: `${SHELL_PREFIX}${String(this.turn).padStart(6, '0')}:${seq}`,
      mimeType: 'application/json',
      data: JSON.stringify(record),
    });
  }

  /**
   * Restores the files of the latest turn that changed files or ran shell commands, and forgets that turn;
   * `undefined` when nothing is left to undo. The turn's shell commands are listed in the report, not reverted.
   */
  async undo(): Promise<UndoReport | undefined> {
    const all = await this.all();
    const commands = await this.commands();
    if (all.length === 0 && commands.length === 0) return undefined;
    return this.undoTurn(Math.max(...all.map((s) => s.turn), ...commands.map((c) => c.turn)));
  }

  /** Restores the files `turn` changed (files it created are removed) and forgets the turn's records. */
  async undoTurn(turn: number): Promise<UndoReport> {
    const report: UndoReport = { turn, restored: [], removed: [], commands: [] };
    for (const c of (await this.commands()).filter((x) => x.turn === turn)) {
      if (!report.commands.includes(c.record.command)) report.commands.push(c.record.command);
      await this.store.artifacts.delete(this.sessionId, c.name);
    }
    for (const s of (await this.all()).filter((x) => x.turn === turn)) {
      const file = nodePath.join(this.cwd, s.path);
      if (s.content === undefined) {
        await rm(file, { force: true });
        report.removed.push(s.path);
      } else {
        await mkdir(nodePath.dirname(file), { recursive: true });
        await writeFile(file, Buffer.from(s.content, 'base64'));
        report.restored.push(s.path);
      }
      await this.store.artifacts.delete(this.sessionId, nameOf(s.turn, s.path));
      this.recorded.delete(`${s.turn}:${s.path}`);
    }
    return report;
  }

  /** The shell commands recorded for `turn` (distinct, in order). */
  async commandsIn(turn: number): Promise<string[]> {
    return [...new Set((await this.commands()).filter((c) => c.turn === turn).map((c) => c.record.command))];
  }

  /** Copies the records of the turns before `beforeTurn` to another session (a rewound copy of this one). */
  async copyTo(sessionId: string, beforeTurn: number): Promise<void> {
    for (const info of await this.store.artifacts.list(this.sessionId)) {
      if (!info.name.startsWith(PREFIX) && !info.name.startsWith(SHELL_PREFIX)) continue;
      if (Number(info.name.split(':')[1]) >= beforeTurn) continue;
      const a = await this.store.artifacts.load(this.sessionId, info.name);
      if (a !== undefined) await this.store.artifacts.save(sessionId, { name: info.name, mimeType: 'application/json', data: a.data });
    }
  }

  /** A unified diff of every file changed this session: its state at the first snapshot against now. Empty when nothing changed. */
  async diff(): Promise<string> {
    const first = new Map<string, Snapshot>();
    for (const s of (await this.all()).sort((a, b) => a.turn - b.turn)) if (!first.has(s.path)) first.set(s.path, s);
    const parts: string[] = [];
    for (const s of [...first.values()].sort((a, b) => a.path.localeCompare(b.path))) {
      const before = s.content !== undefined ? Buffer.from(s.content, 'base64').toString('utf8') : '';
      const now = await readFile(nodePath.join(this.cwd, s.path), 'utf8').catch(() => undefined);
      const after = now ?? '';
      if (before === after && (s.content !== undefined) === (now !== undefined)) continue;
      const label = s.content === undefined ? `${s.path} (new)` : now === undefined ? `${s.path} (deleted)` : s.path;
      parts.push(unifiedDiff(before, after, { path: label }));
    }
    return parts.join('\n');
  }

  /**
   * Wraps an editing tool so each call records the prior content of the file it names (`path`)
   * before the tool runs. The tool itself is unchanged.
   */
  wrap(tool: Tool): Tool {
    return {
      ...tool,
      execute: async (input, context) => {
        const path = (input as { path?: unknown } | undefined)?.path;
        if (typeof path === 'string') await this.record(path);
        return tool.execute(input, context);
      },
    };
  }

  /**
   * Wraps the shell tool so each call records its command line for the current turn before it runs (after its
   * approval). The tool itself is unchanged.
   */
  wrapShell(tool: Tool): Tool {
    return {
      ...tool,
      execute: async (input, context) => {
        const command = (input as { command?: unknown } | undefined)?.command;
        if (typeof command === 'string') await this.recordCommand(command);
        return tool.execute(input, context);
      },
    };
  }

  private async commands(): Promise<Array<{ name: string; turn: number; record: ShellRecord }>> {
    const infos = (await this.store.artifacts.list(this.sessionId)).filter((a) => a.name.startsWith(SHELL_PREFIX));
    const out: Array<{ name: string; turn: number; record: ShellRecord }> = [];
    for (const info of infos.sort((a, b) => a.name.localeCompare(b.name))) {
      const a = await this.store.artifacts.load(this.sessionId, info.name);
      if (a === undefined) continue;
      const record = JSON.parse(Buffer.from(a.data).toString('utf8')) as ShellRecord;
      out.push({ name: info.name, turn: record.turn, record });
    }
    return out;
  }

  private async all(): Promise<Snapshot[]> {
    const infos = (await this.store.artifacts.list(this.sessionId)).filter((a) => a.name.startsWith(PREFIX));
    const out: Snapshot[] = [];
    for (const info of infos) {
      const a = await this.store.artifacts.load(this.sessionId, info.name);
      if (a !== undefined) out.push(JSON.parse(Buffer.from(a.data).toString('utf8')) as Snapshot);
    }
    return out;
  }
}

function nameOf(turn: number, path: string): string {
  return `${PREFIX}${String(turn).padStart(6, '0')}:${createHash('sha1').update(path).digest('hex').slice(0, 16)}`;
}
