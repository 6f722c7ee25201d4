import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** File names looked for, in order. */
export const CONFIG_FILE_NAMES = ['corvid.yaml', 'corvid.yml'] as const;

/**
 * The config file in a directory: `corvid.yaml`, else `corvid.yml`; `undefined` when there is
 * neither. Only the directory itself is searched, not its parents.
 */
export function findConfigFile(cwd: string = process.cwd()): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const file = join(resolve(cwd), name);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}
