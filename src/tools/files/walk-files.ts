import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import ignore, { type Ignore } from 'ignore';

/** Options for `walkFiles`. */
export interface WalkOptions {
  /** Skip what `.gitignore` files (in the folder and below) ignore. */
  gitignore: boolean;
  /** Leave out entries whose path relative to the walk's start this returns true for (deny patterns). */
  skip?: (relative: string, isDir: boolean) => boolean;
  /** Stop after this many files. */
  limit?: number;
}

interface IgnoreLayer {
  /** Folder of the .gitignore, relative to the walk's start ('' for the start). */
  base: string;
  rules: Ignore;
}

/** Orders paths by their UTF-16 code units (the order grep and glob results are shown in). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Files below `dir` (relative paths with `/`), in sorted order: hidden files included, `.git`
 * folders and symbolic links never entered, `.gitignore` rules of `dir` and its sub-folders
 * applied when asked (not those of folders above it). Folders are read concurrently.
 */
export async function walkFiles(dir: string, options: WalkOptions): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const visit = async (rel: string, layers: IgnoreLayer[]): Promise<boolean> => {
    let entries;
    try {
      entries = await readdir(rel === '' ? dir : join(dir, rel), { withFileTypes: true });
    } catch {
      return true;
    }
    if (options.gitignore && entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const text = await readFile(join(dir, rel, '.gitignore'), 'utf8').catch(() => '');
      layers = [...layers, { base: rel, rules: ignore().add(text) }];
    }
    const subdirs: string[] = [];
    for (const e of entries) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      const isDir = e.isDirectory();
      if (!isDir && !e.isFile()) continue; // links, sockets, FIFOs
      if (isDir && e.name === '.git') continue;
      if (options.gitignore && ignored(layers, path, isDir)) continue;
      if (options.skip?.(path, isDir)) continue;
      if (isDir) subdirs.push(path);
      else if (files.length >= limit) return false;
      else files.push(path);
    }
    const done = await Promise.all(subdirs.map((sub) => visit(sub, layers)));
    return done.every(Boolean);
  };
  const complete = await visit('', []);
  files.sort(comparePaths);
  if (files.length > limit) files.length = limit;
  return { files, truncated: !complete };
}

function ignored(layers: IgnoreLayer[], path: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const rel = layer.base === '' ? path : path.slice(layer.base.length + 1);
    if (layer.rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}
