import { accessSync, constants } from 'node:fs';
import nodePath from 'node:path';

import { runProcess } from './run-process.js';
import { sandboxArgs, type SandboxView } from './sandbox-mounts.js';

/** The `bwrap` program on `PATH`, or `undefined` when bubblewrap is not installed. */
export function findBwrap(path = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'): string | undefined {
  for (const dir of path.split(':')) {
    if (dir === '') continue;
    const file = nodePath.join(dir, 'bwrap');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** Runs `true` in the sandbox once: `undefined` when it works, else bwrap's complaint. */
export async function probeBwrap(bwrap: string, view: SandboxView): Promise<string | undefined> {
  try {
    const r = await runProcess({
      file: bwrap,
      args: [...(await sandboxArgs(view)), 'true'],
      cwd: view.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 10_000,
      killGraceMs: 500,
      maxOutputBytes: 4096,
      stopReadingAtBytes: 65_536,
    });
    return r.exitCode === 0 ? undefined : r.stderr.trim() || `bwrap exited with ${r.exitCode ?? r.signal}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
