import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import nodePath from 'node:path';

import picomatch from 'picomatch';

import { type PathRefusalReason, PathRefusedError } from '../errors/path-refused-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { checkPathText } from './path-text-check.js';

export { type PathRefusalReason, PathRefusedError } from '../errors/path-refused-error.js';

/** A folder tools may use: everything below it, read-only or read-write. */
export interface PathRoot {
  /** The folder (absolute, or relative to the current directory). */
  path: string;
  mode: 'read-only' | 'read-write';
}

/** Options for `new PathPolicy()`. */
export interface PathPolicyOptions {
  /** The allowed folders; relative paths given to `resolve` are taken relative to the first. */
  roots: PathRoot[];
  /**
   * Globs refused for reading and writing, matched on the root-relative real path (and on the
   * path as requested). A pattern without `/` matches a name at any depth (`.env`, `*.pem`); one
   * with `/` is anchored at the root (`.git/**`, `config/secrets.yaml`). A denied folder denies
   * everything below it. Matching ignores case.
   */
  deny?: string[];
  /**
   * Refuse to read regular files with more than one hard link (they may alias a file outside
   * the roots). Writing them is always refused. Default `false`.
   */
  refuseHardLinkedReads?: boolean;
}

/** What `PathPolicy.check` found out about an allowed path. */
export interface ResolvedPath {
  /** Real absolute path (symbolic links resolved; the missing tail of a new file appended). */
  path: string;
  /** The root it is in (as configured, absolute). */
  root: string;
  /** Path relative to that root, with `/` separators (`.` for the root itself). */
  relative: string;
  /** The file system entry, when it exists. */
  stats?: Stats;
}

/** How a path is going to be used. */
export type PathAccess = 'read' | 'write';

interface RealRoot {
  path: string;
  real: string;
  mode: PathRoot['mode'];
  caseInsensitive: boolean;
}

/**
 * Confines paths to a set of roots. Every file tool (and the shell's redirections) asks it
 * before touching a path; what it refuses becomes a clear error for the model.
 *
 * Refused: NUL bytes, control/invisible characters and Unicode look-alikes of `/` and `.`;
 * `..` and absolute paths leading out of every root; symbolic links leading out (checked on the
 * real path, also for files that do not exist yet, through their nearest existing folder);
 * dangling links; deny globs; writes under read-only roots; regular files with several hard links
 * (for writes, and for reads with `refuseHardLinkedReads`); devices, FIFOs and sockets.
 *
 * The check and the later use of the path are separate system calls: a process racing to swap
 * a folder for a link between them is out of scope (tools and the shell run one call at a time).
 * @example
 * const policy = new PathPolicy({ roots: [{ path: './project', mode: 'read-write' }], deny: ['.env'] });
 * const file = await policy.resolve('src/index.ts', 'read');
 */
export class PathPolicy {
  readonly roots: readonly PathRoot[];
  readonly deny: readonly string[];
  readonly #refuseHardLinkedReads: boolean;
  readonly #denyMatchers: ReadonlyArray<{ pattern: string; match: picomatch.Matcher }>;
  #realRoots: Promise<RealRoot[]> | undefined;

  constructor(options: PathPolicyOptions) {
    if (!options || !Array.isArray(options.roots) || options.roots.length === 0) {
      throw new ValidationError('PathPolicy needs at least one root folder');
    }
    this.roots = options.roots.map((r, i) => {
      if (!r || typeof r.path !== 'string' || r.path.length === 0 || r.path.includes('\0')) {
        throw new ValidationError(`PathPolicy roots[${i}]: "path" must be a folder path`);
      }
      if (r.mode !== 'read-only' && r.mode !== 'read-write') {
        throw new ValidationError(`PathPolicy roots[${i}]: "mode" must be "read-only" or "read-write"`);
      }
      return { path: nodePath.resolve(r.path), mode: r.mode };
    });
    this.deny = [...(options.deny ?? [])];
    this.#denyMatchers = this.deny.map((pattern, i) => {
      if (typeof pattern !== 'string' || pattern.trim() === '') throw new ValidationError(`PathPolicy deny[${i}] must be a glob`);
      const clean = pattern.replace(/^\/+|\/+$/g, '');
      // gitignore-like: a pattern without "/" matches a name at any depth.
      return { pattern, match: picomatch(clean, { dot: true, nocase: true, basename: !clean.includes('/') }) };
    });
    this.#refuseHardLinkedReads = options.refuseHardLinkedReads ?? false;
  }

  /**
   * Resolves `path` (relative to the first root, or absolute) for `access` and returns the real
   * absolute path; throws `PathRefusedError` with a message for the model when it is not allowed.
   */
  async resolve(path: string, access: PathAccess): Promise<string> {
    return (await this.check(path, access)).path;
  }

  /** Whether files with several hard links are refused for reading too (search tools skip them). */
  get refusesHardLinkedReads(): boolean {
    return this.#refuseHardLinkedReads;
  }

  /** Like `resolve`, with the root, the root-relative path and the entry's stats. */
  async check(path: string, access: PathAccess): Promise<ResolvedPath> {
    const bad = checkPathText(path);
    if (bad) throw this.#refuse(path, bad.kind, `${bad.message}.`);
    const roots = await this.#loadRoots();
    const joined = nodePath.isAbsolute(path) ? path : `${roots[0].path}${nodePath.sep}${path}`;
    const lexical = nodePath.resolve(joined);
    const lexicalRoot = findRoot(lexical, roots, 'path') ?? findRoot(lexical, roots, 'real');
    if (!lexicalRoot) {
      const how = nodePath.isAbsolute(path) ? 'is outside' : 'leads outside';
      throw this.#refuse(path, 'outside-root', `it ${how} the allowed folders (${this.#rootList()}).`);
    }
    const real = await this.#realPath(path, joined);
    const root = findRoot(real, roots, 'real');
    if (!root) {
      throw this.#refuse(
        path,
        'symlink-escape',
        `it resolves through a symbolic link to a place outside the allowed folders (${this.#rootList()}).`,
      );
    }
    const relative = toPosix(nodePath.relative(root.real, real)) || '.';
    const requested = toPosix(nodePath.relative(lexicalRoot.path, lexical)) || '.';
    const denied = this.#deniedBy(relative) ?? this.#deniedBy(requested);
    if (denied) throw this.#refuse(path, 'denied', `it matches the deny pattern ${JSON.stringify(denied)}.`);
    if (access === 'write' && root.mode === 'read-only') {
      throw this.#refuse(path, 'read-only', `it is in the read-only folder ${root.path}.`);
    }
    const stats = await stat(real).catch(() => undefined);
    if (stats) this.#checkEntry(path, stats, access);
    return { path: real, root: root.path, relative, ...(stats ? { stats } : {}) };
  }

  /**
   * How a real path this policy returned is shown to the model: relative to the first root,
   * or absolute when it is under another root.
   */
  display(realPath: string): string {
    const roots = this.#resolvedRoots ?? [];
    const root = findRoot(realPath, roots, 'real');
    if (!root) return realPath;
    const rel = toPosix(nodePath.relative(root.real, realPath)) || '.';
    if (root === roots[0]) return rel;
    return rel === '.' ? root.path : nodePath.join(root.path, rel);
  }

  #resolvedRoots: RealRoot[] | undefined;

  #checkEntry(path: string, stats: Stats, access: PathAccess): void {
    if (!stats.isFile() && !stats.isDirectory()) {
      throw this.#refuse(path, 'special-file', 'it is not a regular file or folder (device, FIFO or socket).');
    }
    if (stats.isFile() && stats.nlink > 1 && (access === 'write' || this.#refuseHardLinkedReads)) {
      throw this.#refuse(
        path,
        'hard-link',
        `it is a file with ${stats.nlink} hard links, which may alias a file outside the allowed folders.`,
      );
    }
  }

  /**
   * The deny pattern matching a root-relative path (`/`-separated) or one of its parent folders,
   * or `undefined`. Tools listing folders use it to leave denied entries out.
   */
  deniedBy(relative: string): string | undefined {
    return this.#deniedBy(relative);
  }

  /** The first deny pattern matching `relative` or one of its parent folders. */
  #deniedBy(relative: string): string | undefined {
    if (this.#denyMatchers.length === 0) return undefined;
    const forms = new Set([relative, relative.normalize('NFC'), relative.normalize('NFKC')]);
    for (const form of forms) {
      const parts = form.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const prefix = parts.slice(0, i).join('/');
        if (prefix === '.' || prefix === '') continue;
        const hit = this.#denyMatchers.find((m) => m.match(prefix));
        if (hit) return hit.pattern;
      }
    }
    return undefined;
  }

  /** Real path of `joined`, following the OS's semantics (`link/..` is the link target's parent). */
  async #realPath(path: string, joined: string): Promise<string> {
    const parts = joined.split(nodePath.sep);
    const tail: string[] = [];
    for (let depth = 0; parts.length > 0; depth++) {
      const candidate = parts.join(nodePath.sep) || nodePath.sep;
      try {
        const real = await realpath(candidate);
        if (tail.length > 0) await this.#checkMissingTail(path, candidate, tail);
        return tail.length === 0 ? real : nodePath.join(real, ...tail.filter((t) => t !== '.' && t !== ''));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') throw this.#refuse(path, 'invalid', 'it contains a loop of symbolic links.');
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      }
      if (depth > 4096) break;
      tail.unshift(parts.pop()!);
    }
    throw this.#refuse(path, 'outside-root', `it leads outside the allowed folders (${this.#rootList()}).`);
  }

  /** The missing part of a new path may not climb (`..`) nor start with a dangling link. */
  async #checkMissingTail(path: string, existing: string, tail: string[]): Promise<void> {
    if (tail.includes('..')) {
      throw this.#refuse(path, 'invalid', '".." follows a folder that does not exist.');
    }
    const first = tail.find((t) => t !== '.' && t !== '');
    if (first === undefined) return;
    const entry = await lstat(nodePath.join(existing, first)).catch(() => undefined);
    if (entry?.isSymbolicLink()) {
      throw this.#refuse(path, 'symlink-escape', 'it goes through a symbolic link whose target does not exist.');
    }
  }

  #loadRoots(): Promise<RealRoot[]> {
    this.#realRoots ??= Promise.all(this.roots.map(realRoot)).then((roots) => (this.#resolvedRoots = roots));
    this.#realRoots.catch(() => (this.#realRoots = undefined));
    return this.#realRoots;
  }

  #rootList(): string {
    return this.roots.map((r) => r.path).join(', ');
  }

  #refuse(path: unknown, reason: PathRefusalReason, why: string): PathRefusedError {
    const shown = typeof path === 'string' ? JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path) : String(path);
    return new PathRefusedError(`Path ${shown} refused: ${why}`, { path: String(path), reason });
  }
}

async function realRoot(root: PathRoot): Promise<RealRoot> {
  let real: string;
  try {
    real = await realpath(root.path);
  } catch (err) {
    throw new PathRefusedError(`The root folder ${root.path} does not exist or cannot be read.`, {
      path: root.path,
      reason: 'invalid',
      cause: err,
    });
  }
  return { path: root.path, real, mode: root.mode, caseInsensitive: await isCaseInsensitive(real) };
}

/** Whether the file system holding `dir` ignores case (checked by asking for its swapped-case name). */
async function isCaseInsensitive(dir: string): Promise<boolean> {
  const base = nodePath.basename(dir);
  const swapped = [...base].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (swapped === base) return process.platform === 'darwin' || process.platform === 'win32';
  const [a, b] = await Promise.all([stat(dir), stat(nodePath.join(nodePath.dirname(dir), swapped)).catch(() => undefined)]);
  return b !== undefined && a.ino === b.ino && a.dev === b.dev;
}

/** The most specific root containing `p` (by its configured or its real path). */
function findRoot(p: string, roots: RealRoot[], by: 'path' | 'real'): RealRoot | undefined {
  let best: RealRoot | undefined;
  for (const root of roots) {
    const base = by === 'path' ? root.path : root.real;
    if (within(p, base, root.caseInsensitive) && (!best || base.length > (by === 'path' ? best.path : best.real).length)) best = root;
  }
  return best;
}

function within(p: string, base: string, caseInsensitive: boolean): boolean {
  const a = caseInsensitive ? p.toLowerCase() : p;
  const b = caseInsensitive ? base.toLowerCase() : base;
  if (a === b) return true;
  const prefix = b.endsWith(nodePath.sep) ? b : b + nodePath.sep;
  return a.startsWith(prefix);
}

function toPosix(p: string): string {
  return nodePath.sep === '/' ? p : p.split(nodePath.sep).join('/');
}
