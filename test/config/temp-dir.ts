import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach } from 'vitest';

const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary directory with the given files (paths relative to it); removed after the test. */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-config-'));
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

/** Writes files (creating directories) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    const file = join(dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Joins lines with newlines (keeps YAML in tests readable and line numbers obvious). */
export const lines = (...l: string[]): string => `${l.join('\n')}\n`;
