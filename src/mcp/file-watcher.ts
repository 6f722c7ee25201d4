import { existsSync, type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

import type { McpServerConfig } from './mcp-server-config.js';

/**
 * The files `reload: watch` follows for a server: its `watch` list, else the arguments (and the
 * command) that name existing files, resolved against its working directory.
 */
export function watchTargets(config: McpServerConfig, baseDir: string): string[] {
  if (config.watch?.length) return config.watch.map((p) => resolve(baseDir, p));
  if (config.transport !== 'stdio') return [];
  const cwd = resolve(baseDir, config.cwd ?? '.');
  return [config.command, ...config.args]
    .filter((a) => !a.startsWith('-'))
    .map((a) => resolve(cwd, a))
    .filter((p) => {
      try {
        return existsSync(p) && statSync(p).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * Calls `onChange` (debounced) when one of the paths changes. Files are watched through their
 * directory, so editors that replace a file on save are seen too. Returns a stop function.
 */
export function watchPaths(paths: string[], onChange: (path: string) => void, debounceMs = 150): () => void {
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (path: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => onChange(path), debounceMs);
  };
  const byDir = new Map<string, Set<string>>();
  for (const p of paths) {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      // A path that does not exist yet: watch its directory for it.
    }
    if (isDir) {
      try {
        const w = watch(p, { recursive: true, persistent: false }, (_e, f) => fire(resolve(p, String(f ?? ''))));
        w.on('error', () => undefined);
        watchers.push(w);
      } catch {
        // Directory vanished or cannot be watched: nothing to follow.
      }
      continue;
    }
    const dir = dirname(p);
    const names = byDir.get(dir) ?? new Set<string>();
    names.add(basename(p));
    byDir.set(dir, names);
  }
  for (const [dir, names] of byDir) {
    try {
      const w = watch(dir, { persistent: false }, (_e, f) => {
        if (f && names.has(String(f))) fire(resolve(dir, String(f)));
      });
      w.on('error', () => undefined);
      watchers.push(w);
    } catch {
      // Directory missing: nothing to follow.
    }
  }
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
