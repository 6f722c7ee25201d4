import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Most entries kept. */
export const HISTORY_SIZE = 1000;

/** `~/.corvid/history` (`CORVID_HISTORY_FILE` overrides it). */
export function historyFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CORVID_HISTORY_FILE || join(homedir(), '.corvid', 'history');
}

/** Reads the history file, newest entry first (readline's order). Missing or unreadable → empty. */
export function loadHistory(file: string): string[] {
  try {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    return lines.slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Writes the history (given newest first) oldest first; failures are ignored. */
export function saveHistory(file: string, history: readonly string[]): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const lines = history
      .slice(0, HISTORY_SIZE)
      .filter((l) => !l.includes('\n'))
      .reverse();
    writeFileSync(file, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
  } catch {
    // Best effort: a read-only home must not break the chat.
  }
}
