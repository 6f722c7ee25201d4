// The installed version of a peer package of bench/ (read from bench/node_modules, not from a registry).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('../..', import.meta.url));

/** @param {string} name a dependency of bench/package.json, e.g. `@lancedb/lancedb` */
export function packageVersion(name) {
  return JSON.parse(readFileSync(`${BENCH}node_modules/${name}/package.json`, 'utf8')).version;
}
