import { MissingPeerError } from './missing-peer-error.js';

/** What `loadPeer` loads. */
export interface LoadPeerOptions<T> {
  /** The package (or packages) the import needs; the first one missing is reported with all of them. */
  packages: string | readonly string[];
  /** What needs them, for the message ("The Postgres run queue"). */
  feature: string;
  /** What to put after `npm install` when it is not the package names (a version range: `pg-boss@10`). */
  install?: string;
  /** The dynamic import (a literal `import('pkg')`, so bundlers and type checkers see it). */
  load: () => Promise<T>;
}

const CANNOT_FIND = /Cannot find (?:package|module) '([^']+)'/;

/**
 * Which of `packages` Node could not find, when `err` is its "cannot find" of one of them (a
 * subpath such as `hono/cors` counts as `hono`); undefined for any other error, including a file
 * missing inside a package that is installed.
 */
export function isMissingPackage(err: unknown, packages: readonly string[]): string | undefined {
  // A loader (a bundler, a test runner's mock) may wrap Node's error: its causes are looked at too.
  for (let e = err as { message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    const specifier = CANNOT_FIND.exec(typeof e.message === 'string' ? e.message : '')?.[1];
    if (specifier !== undefined) return packages.find((p) => specifier === p || specifier.startsWith(`${p}/`));
  }
  return undefined;
}

/**
 * The one way Corvid loads an optional peer package: runs `load`, and when the package is not
 * installed fails with a `MissingPeerError` naming the feature and the `npm install` command,
 * instead of a module-resolution stack. Other failures pass through unchanged.
 * @example
 * const { Queue } = await loadPeer({ packages: 'bullmq', feature: 'The Redis run queue', load: () => import('bullmq') });
 */
export async function loadPeer<T>(options: LoadPeerOptions<T>): Promise<T> {
  const packages = typeof options.packages === 'string' ? [options.packages] : [...options.packages];
  try {
    return await options.load();
  } catch (err) {
    const missing = isMissingPackage(err, packages);
    if (missing !== undefined)
      throw new MissingPeerError({ feature: options.feature, packages, missing, install: options.install, cause: err });
    throw err;
  }
}
