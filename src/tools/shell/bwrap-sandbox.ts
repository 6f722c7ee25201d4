import { accessSync, constants } from 'node:fs';
import nodePath from 'node:path';

import { runProcess } from './run-process.js';

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

/** What the sandbox lets a command do. */
export interface SandboxOptions {
  /** The writable folder (real path). */
  workspace: string;
  /** Folder the command starts in. */
  cwd: string;
  /** Keep the network (default: none, not even loopback of the host). */
  network: boolean;
}

/**
 * bubblewrap arguments: the whole file system read-only, the workspace writable, a private
 * `/tmp`, fresh `/proc` and `/dev`, every namespace unshared (network too unless allowed), the
 * sandbox killed with its parent and detached from the terminal (`--new-session`).
 */
export function bwrapArgs(options: SandboxOptions): string[] {
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    options.workspace,
    options.workspace,
    '--unshare-all',
    ...(options.network ? ['--share-net'] : []),
    '--die-with-parent',
    '--new-session',
    '--chdir',
    options.cwd,
    '--',
  ];
}

/** Runs `true` in the sandbox once: `undefined` when it works, else bwrap's complaint. */
export async function probeBwrap(bwrap: string, options: SandboxOptions): Promise<string | undefined> {
  try {
    const r = await runProcess({
      file: bwrap,
      args: [...bwrapArgs(options), 'true'],
      cwd: options.cwd,
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
