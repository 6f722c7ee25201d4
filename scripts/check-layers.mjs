#!/usr/bin/env node
// The layer rule of src/: contracts (types, errors) → core and base plumbing (http: request bodies,
// ids, the SSRF-guarded fetch) → adapters (models, storage, secrets, durable, queue, mcp, a2a, tools,
// knowledge, agents, testing) → runtime, config → interfaces (cli, server) → the package entry
// (src/index.ts). A file may import (statically or with `import()`) from its own layer or below,
// never above, and the folders may not import each other in a cycle. An adapter reaches another
// adapter only through one of its public entries (an `index.ts`), never into its internals.
// Edges listed in scripts/layer-baseline.json are known debts: they are reported, not failed,
// and an entry that no longer exists must be removed from the baseline (so it only shrinks).
// Usage: node scripts/check-layers.mjs [--update-baseline]
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const baselinePath = join(root, 'scripts', 'layer-baseline.json');

/** Rank of each top-level folder of src/ (higher may import lower). */
export const LAYERS = {
  types: 0,
  errors: 0,
  core: 1,
  http: 1,
  models: 2,
  storage: 2,
  secrets: 2,
  durable: 2,
  mcp: 2,
  a2a: 2,
  tools: 2,
  knowledge: 2,
  agents: 2,
  testing: 2,
  evals: 2,
  queue: 2,
  runtime: 3,
  config: 3,
  cli: 4,
  code: 4,
  server: 4,
  '.': 5,
};

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The top-level folder of a file under src/ ('.' for files directly in src/). */
const folderOf = (file) => {
  const rel = relative(src, file).split(sep);
  return rel.length === 1 ? '.' : rel[0];
};

/** Every relative import of a file: `from '…'`, `import '…'` and `import('…')`, type-only imports included. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specs = new Set();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) specs.add(m[1]);
  return [...specs].map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

const edges = [];
for (const file of files(src)) {
  for (const target of importsOf(file)) {
    if (!target.startsWith(src)) continue;
    edges.push({ from: relative(root, file), to: relative(root, target), fromFolder: folderOf(file), toFolder: folderOf(target) });
  }
}

const unknown = [...new Set(edges.flatMap((e) => [e.fromFolder, e.toFolder]))].filter((f) => !(f in LAYERS));
if (unknown.length) {
  console.error(`check-layers: folders without a layer: ${unknown.join(', ')} (add them to LAYERS in scripts/check-layers.mjs)`);
  process.exit(1);
}

const key = (e) => `${e.from} -> ${e.to}`;
const upward = edges.filter((e) => LAYERS[e.fromFolder] < LAYERS[e.toFolder]);
const ADAPTERS = 2;
const internal = edges.filter(
  (e) =>
    e.fromFolder !== e.toFolder && LAYERS[e.fromFolder] === ADAPTERS && LAYERS[e.toFolder] === ADAPTERS && !e.to.endsWith(`${sep}index.ts`),
);

// Folder cycles, over the edges that are not upward (an upward edge is already an error).
// The edge that stands for a pair of folders is the first in path order, so reordering imports never changes it.
const graph = new Map();
for (const e of [...edges].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0))) {
  if (e.fromFolder === e.toFolder || LAYERS[e.fromFolder] < LAYERS[e.toFolder]) continue;
  if (!graph.has(e.fromFolder)) graph.set(e.fromFolder, new Map());
  const to = graph.get(e.fromFolder);
  if (!to.has(e.toFolder)) to.set(e.toFolder, e);
}
const cycleEdges = [];
for (const [a, targets] of graph) {
  for (const [b, e] of targets) if (graph.get(b)?.has(a) && a < b) cycleEdges.push(e, graph.get(b).get(a));
}

const violations = [
  ...upward.map((e) => ({
    edge: key(e),
    why: `${e.fromFolder} (layer ${LAYERS[e.fromFolder]}) imports ${e.toFolder} (layer ${LAYERS[e.toFolder]})`,
  })),
  ...cycleEdges.map((e) => ({ edge: key(e), why: `folders ${e.fromFolder} and ${e.toFolder} import each other` })),
  ...internal.map((e) => ({
    edge: key(e),
    why: `${e.fromFolder} reaches into ${e.toFolder}'s internals: import one of ${e.toFolder}'s public entries (an index.ts) instead`,
  })),
];

if (process.argv.includes('--update-baseline')) {
  writeFileSync(baselinePath, `${JSON.stringify([...new Set(violations.map((v) => v.edge))].sort(), null, 2)}\n`);
  console.log(`check-layers: baseline written with ${violations.length} known edge(s)`);
  process.exit(0);
}

const baseline = new Set(existsSync(baselinePath) ? JSON.parse(readFileSync(baselinePath, 'utf8')) : []);
const fresh = violations.filter((v) => !baseline.has(v.edge));
const present = new Set(violations.map((v) => v.edge));
const stale = [...baseline].filter((b) => !present.has(b));
for (const v of fresh) console.error(`✗ ${v.edge}: ${v.why}`);
for (const s of stale) console.error(`✗ ${s}: listed in scripts/layer-baseline.json but gone: remove it from the baseline`);
console.log(
  `check-layers: ${edges.length} imports, ${violations.length - fresh.length} known debt(s) in the baseline, ${fresh.length} new violation(s), ${stale.length} stale baseline entr${stale.length === 1 ? 'y' : 'ies'}`,
);
process.exit(fresh.length || stale.length ? 1 : 0);
