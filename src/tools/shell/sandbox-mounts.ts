import { lstatSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import nodePath from 'node:path';

import type { PathPolicy } from '../path-policy.js';

/** Folders of the system every command needs, shown read-only (a symbolic link such as `/bin -> usr/bin` is recreated as one). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'] as const;

/**
 * The part of `/etc` shown read-only: name lookup, the dynamic linker, certificates, time zone and
 * locale. Not shown: `/etc/shadow`, `/etc/gshadow`, `/etc/ssh`, `/etc/ssl/private`, `/etc/npmrc`,
 * `/etc/gitconfig` and everything else that may hold a secret or a credential.
 */
export const ETC_ENTRIES = [
  '/etc/passwd',
  '/etc/group',
  '/etc/hosts',
  '/etc/hostname',
  '/etc/host.conf',
  '/etc/resolv.conf',
  '/etc/nsswitch.conf',
  '/etc/gai.conf',
  '/etc/services',
  '/etc/protocols',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/ssl/certs',
  '/etc/ssl/openssl.cnf',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/pki/tls/certs',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/locale.alias',
  '/etc/mime.types',
  '/etc/os-release',
  '/etc/debian_version',
] as const;

/** Devices every command may name (the sandbox's own `/dev` has them). */
export const DEVICES = [
  '/dev/null',
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/fd',
];

/** Whether `path` (absolute, normalised) is part of the read-only system a command may see. */
export function isSystemPath(path: string): boolean {
  const under = (base: string) => path === base || path.startsWith(`${base}/`);
  return SYSTEM_DIRS.some(under) || ETC_ENTRIES.some(under) || DEVICES.some(under);
}

/** What the sandbox shows a command. All paths are real (symbolic links resolved). */
export interface SandboxView {
  /** The writable folder. */
  workspace: string;
  /** Folders shown read-only besides the system. */
  readRoots?: readonly string[];
  /** Folder the command starts in. */
  cwd: string;
  /** Keep the network (default: none, not even the host's loopback). */
  network: boolean;
  /** The home folder: replaced by an empty, private one. */
  home?: string;
  /** Deny globs matched in the workspace and read roots (see `PathPolicy`): what matches is hidden. */
  paths?: PathPolicy;
  /** Files and folders hidden wherever they are (the running Corvid's config file and database). */
  hidden?: readonly string[];
}

/** Entries visited at most when looking for denied files in the workspace and the read roots. */
const MAX_SCANNED = 100_000;

/**
 * The bubblewrap arguments for one command: a read-only system (`SYSTEM_DIRS`, `ETC_ENTRIES`), fresh
 * `/proc` and `/dev`, a private `/tmp`, an empty private home, the read roots read-only, the workspace
 * writable, and every denied or hidden entry found in them covered (`/dev/null` over a file, an empty
 * read-only tmpfs over a folder). Every namespace is unshared (the network too unless allowed), every
 * capability dropped, the sandbox dies with its parent and is detached from the terminal.
 */
export async function sandboxArgs(view: SandboxView): Promise<string[]> {
  const args = ['--unshare-all', ...(view.network ? ['--share-net'] : []), '--cap-drop', 'ALL', '--die-with-parent', '--new-session'];
  args.push(...systemMounts(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  if (view.home !== undefined && view.home !== '/' && !isSystemPath(view.home)) args.push('--tmpfs', view.home);
  // A read root inside the workspace is mounted after it, so that it stays read-only.
  const roots = view.readRoots ?? [];
  const [inner, outer] = [roots.filter((r) => within(r, view.workspace)), roots.filter((r) => !within(r, view.workspace))];
  for (const root of outer) args.push('--ro-bind', root, root);
  args.push('--bind', view.workspace, view.workspace);
  for (const root of inner) args.push('--ro-bind', root, root);
  for (const entry of await coveredEntries(view)) {
    args.push(...(entry.dir ? ['--tmpfs', entry.path, '--remount-ro', entry.path] : ['--ro-bind', '/dev/null', entry.path]));
  }
  // The sandbox's own root (where the mount points were made) becomes read-only too.
  args.push('--remount-ro', '/', '--chdir', view.cwd, '--');
  return args;
}

function systemMounts(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const entry = lstatSync(dir, { throwIfNoEntry: false });
    if (entry === undefined) continue;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const entry of ETC_ENTRIES) args.push('--ro-bind-try', entry, entry);
  return args;
}

/** The entries to cover: denied names found in the visible folders, and the hidden paths that are visible. */
async function coveredEntries(view: SandboxView): Promise<Array<{ path: string; dir: boolean }>> {
  const found = new Map<string, boolean>();
  const budget = { left: MAX_SCANNED };
  const visible = [view.workspace, ...(view.readRoots ?? [])];
  if (view.paths !== undefined) for (const root of visible) await scan(root, root, view.paths, found, budget);
  for (const path of view.hidden ?? []) {
    const entry = lstatSync(path, { throwIfNoEntry: false });
    if (entry === undefined || entry.isSymbolicLink() || !visible.some((v) => within(path, v))) continue;
    found.set(path, entry.isDirectory());
  }
  // A folder is covered before what is inside it is (bwrap mounts in order).
  return [...found].map(([path, dir]) => ({ path, dir })).sort((a, b) => a.path.length - b.path.length);
}

/** Folders not looked into for denied files: installed dependencies and git's object store, large and not the user's secrets. */
const NOT_SCANNED = new Set(['node_modules', '.git']);

async function scan(root: string, dir: string, paths: PathPolicy, found: Map<string, boolean>, budget: { left: number }): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  budget.left -= entries.length;
  if (budget.left < 0) {
    throw new Error(`more than ${MAX_SCANNED} files in ${root}: the sandbox cannot look for denied files there; use a smaller workspace`);
  }
  const folders: string[] = [];
  for (const e of entries) {
    if (e.isSymbolicLink()) continue;
    const path = nodePath.join(dir, e.name);
    const relative = nodePath.relative(root, path).split(nodePath.sep).join('/');
    if (paths.deniedBy(relative) !== undefined) found.set(path, e.isDirectory());
    else if (e.isDirectory() && !NOT_SCANNED.has(e.name)) folders.push(path);
  }
  await Promise.all(folders.map((f) => scan(root, f, paths, found, budget)));
}

/** Whether `path` is `base` or inside it. */
export function within(path: string, base: string): boolean {
  return path === base || path.startsWith(base.endsWith('/') ? base : `${base}/`);
}
