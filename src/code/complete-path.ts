import { readdir } from 'node:fs/promises';
import nodePath from 'node:path';

/**
 * Completion candidates for an `@path` mention typed as `prefix`: the files and folders (with a trailing `/`) of
 * `cwd` whose path starts with it, never outside `cwd`, without `.git`, `node_modules` and (unless a dot is typed)
 * hidden entries; at most 50, sorted.
 */
export async function completePath(cwd: string, prefix: string): Promise<string[]> {
  const slash = prefix.lastIndexOf('/');
  const dirPart = slash >= 0 ? prefix.slice(0, slash + 1) : '';
  const namePart = slash >= 0 ? prefix.slice(slash + 1) : prefix;
  const dir = nodePath.resolve(cwd, dirPart);
  const rel = nodePath.relative(cwd, dir);
  if (rel.startsWith('..') || nodePath.isAbsolute(rel)) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter(
      (e) =>
        e.name.startsWith(namePart) &&
        e.name !== '.git' &&
        e.name !== 'node_modules' &&
        (namePart.startsWith('.') || !e.name.startsWith('.')),
    )
    .map((e) => `${dirPart}${e.name}${e.isDirectory() ? '/' : ''}`)
    .sort()
    .slice(0, 50);
}
