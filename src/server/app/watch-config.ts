import { dirname, resolve } from 'node:path';

import { watchPaths } from '../../mcp/file-watcher.js';

/**
 * Watches a config file and the `.env` files next to it and in `cwd`; calls `onChange`
 * (debounced) with the changed path. Returns a stop function.
 */
export function watchConfig(options: {
  configPath: string;
  cwd: string;
  onChange: (path: string) => void;
  debounceMs?: number;
}): () => void {
  const paths = [...new Set([options.configPath, resolve(dirname(options.configPath), '.env'), resolve(options.cwd, '.env')])];
  return watchPaths(paths, options.onChange, options.debounceMs ?? 200);
}
