/**
 * better-sqlite3's compiled module missing or unloadable (never built, built for another Node.js):
 * one line naming the fix, not the loader's list of every path it tried.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { StorageError } from '../../src/errors/storage-error.js';
import { openStore } from '../../src/storage/index.js';
import { cliEnv, runCli, STACK_LINE, tempDir, writeConfig } from '../cli/cli-harness.js';

const tmp = tempDir('corvid-native-');
afterAll(() => tmp.cleanup());

async function openError(nativeBinding: string): Promise<StorageError> {
  const err = await openStore({ path: join(tmp.dir, 'lib.db'), nativeBinding }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StorageError.isInstance(err)).toBe(true);
  return err as StorageError;
}

describe('SQLite native module', () => {
  let notAModule: string;
  beforeAll(() => {
    notAModule = join(tmp.dir, 'empty.node');
    writeFileSync(notAModule, '');
  });

  it('a missing compiled module is a driver_missing StorageError with the rebuild command and the Node version', async () => {
    const err = await openError(join(tmp.dir, 'nowhere', 'better_sqlite3.node'));
    expect(err.code).toBe('storage_driver_missing');
    expect(err.message).toContain('npm rebuild better-sqlite3');
    expect(err.message).toContain(process.version);
    expect(err.message).not.toContain('\n');
  });

  it('a module that cannot be loaded (wrong build) gets the same advice', async () => {
    const err = await openError(notAModule);
    expect(err.code).toBe('storage_driver_missing');
    expect(err.message).toContain('npm rebuild better-sqlite3');
    expect(err.message).not.toContain('\n');
  });

  it('the CLI prints one line, without a stack or the paths tried (CORVID_SQLITE_BINDING)', async () => {
    const dir = join(tmp.dir, 'project');
    mkdirSync(join(dir, '.corvid'), { recursive: true });
    writeConfig(dir, 'agents:\n  a: { model: "openai:gpt-4.1-mini" }\n');
    writeFileSync(join(dir, '.corvid', 'corvid.db'), '');
    const r = await runCli(['sessions', 'list'], {
      cwd: dir,
      env: cliEnv(tmp.dir, { CORVID_SQLITE_BINDING: join(tmp.dir, 'missing', 'better_sqlite3.node') }),
    });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm rebuild better-sqlite3');
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stderr).not.toContain('Tried:');
  });
});
