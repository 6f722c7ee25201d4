#!/usr/bin/env node
// After `tsc`: marks every reference to an optional peer package in the emitted declarations
// (dist/**/*.d.ts) with `// @ts-ignore`, so that a project without that package still
// type-checks with `skipLibCheck: false`. With the package installed nothing changes; without
// it, the types that come from it are `any` (the code that needs it cannot run anyway).
// The peers are read from package.json (peerDependenciesMeta: optional), with the dependencies
// whose `@types/…` package is a devDependency.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const optional = Object.entries(pkg.peerDependenciesMeta ?? {})
  .filter(([, meta]) => meta?.optional)
  .map(([name]) => name);
// Dependencies whose types come from an `@types/…` package we only install for development
// (better-sqlite3): users get the package but not its types, so its references are guarded too.
for (const name of Object.keys(pkg.dependencies ?? {})) {
  const types = `@types/${name.replace(/^@([^/]+)\//, '$1__')}`;
  if (pkg.devDependencies?.[types] && !pkg.dependencies?.[types]) optional.push(name);
}
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// `from 'pkg'`, `from 'pkg/sub'`, `import('pkg')` / `import("pkg/sub")`.
const peer = new RegExp(`(?:from\\s+|import\\()(['"])(?:${optional.map(escape).join('|')})(?:/[^'"]*)?\\1`);
const MARK = '// @ts-ignore optional peer dependency: its types are `any` when it is not installed';

let files = 0;
let lines = 0;
for (const rel of readdirSync(join(root, 'dist'), { recursive: true })) {
  if (!rel.endsWith('.d.ts')) continue;
  const file = join(root, 'dist', rel);
  const source = readFileSync(file, 'utf8').split('\n');
  const out = [];
  let changed = false;
  for (const [i, line] of source.entries()) {
    if (peer.test(line) && source[i - 1]?.trim() !== MARK) {
      out.push(`${line.match(/^\s*/)[0]}${MARK}`);
      changed = true;
      lines++;
    }
    out.push(line);
  }
  if (changed) {
    writeFileSync(file, out.join('\n'));
    files++;
  }
}
if (process.argv.includes('--verbose')) console.log(`guard-optional-peer-types: ${lines} references in ${files} declaration files`);
