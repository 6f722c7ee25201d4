#!/usr/bin/env node
// The cost of `import 'corvid'` (dist/index.js) in CI: the modules it loads (counted by a module
// hook, the same on every machine) and its cold import time beside the `ai` package's in the same
// run (fresh processes, interleaved, median over `node -e 0`). Fails when the entry loads zod or a
// tool family, loads more than MAX_MODULES modules, or takes longer than BUDGET × ai's import.
// Usage: node scripts/check-import-cost.mjs [--runs=N]
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MAX_MODULES = 130;
const BUDGET = 0.75;
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 9);
const root = fileURLToPath(new URL('..', import.meta.url));
const entry = pathToFileURL(`${root}dist/index.js`).href;

const hook = `data:text/javascript,${encodeURIComponent(
  "import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(" +
    '\'export async function load(u, c, n) { if (!u.startsWith("node:")) process.stderr.write("LOADED " + u + "\\\\n"); return n(u, c); }\'));',
)}`;
const traced = spawnSync(process.execPath, ['--import', hook, '--input-type=module', '-e', `await import(${JSON.stringify(entry)})`], {
  cwd: root,
  encoding: 'utf8',
});
if (traced.status !== 0) {
  console.error(`import 'corvid' failed:\n${traced.stderr}`);
  process.exit(1);
}
const loaded = traced.stderr
  .split('\n')
  .filter((l) => l.startsWith('LOADED '))
  .map((l) => l.slice(7));
const bad = loaded.filter((u) => /\/node_modules\/zod\/|\/dist\/tools\/(files|shell|web|slack|rest)\//.test(u));

const time = (code) => {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node -e ${code} exited with ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = { node: [], corvid: [], ai: [] };
for (let i = 0; i < runs; i++) {
  samples.node.push(time('0'));
  samples.corvid.push(time(`await import(${JSON.stringify(entry)})`));
  samples.ai.push(time("await import('ai')"));
}
const base = median(samples.node);
const corvid = Math.max(1, median(samples.corvid) - base);
const ai = Math.max(1, median(samples.ai) - base);
const ratio = corvid / ai;
console.log(`import 'corvid': ${loaded.length} modules (limit ${MAX_MODULES}); ${corvid.toFixed(0)} ms over node -e 0`);
console.log(`import 'ai': ${ai.toFixed(0)} ms over node -e 0 (node -e 0: ${base.toFixed(0)} ms; medians of ${runs} interleaved runs)`);
console.log(`corvid / ai: ${ratio.toFixed(2)}x (budget ${BUDGET}x)`);

let ok = true;
if (bad.length > 0) {
  console.log(
    `error: import 'corvid' loads zod or a tool family (keep them behind corvid/tools or a lazy import):\n  ${bad.slice(0, 5).join('\n  ')}`,
  );
  ok = false;
}
if (loaded.length > MAX_MODULES) {
  console.log(`error: import 'corvid' loads ${loaded.length} modules, more than ${MAX_MODULES}`);
  ok = false;
}
if (ratio > BUDGET) {
  console.log(`error: import 'corvid' takes ${ratio.toFixed(2)}x the time of import 'ai', over the budget of ${BUDGET}x`);
  ok = false;
}
process.exit(ok ? 0 : 1);
