#!/usr/bin/env node
// CPU profile of one framework's per-step scenario, summarised by self time.
//
//   node bench/profile.mjs [framework=corvid] [generate|stream] [--runs N] [--top N]
//
// Runs bench/frameworks/<framework>.mjs under `node --cpu-prof`, writes the .cpuprofile to
// bench/results/profiles/ (open it in Chrome DevTools or speedscope) and prints the functions
// and packages with the most self time.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { BENCH_DIR, ROOT_DIR } from './lib/harness.mjs';

const args = process.argv.slice(2);
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const framework = positional[0] ?? 'corvid';
const mode = positional[1] ?? 'generate';
const runs = flag('runs', 3000);
const top = flag('top', 30);

const dir = join(BENCH_DIR, 'results', 'profiles');
mkdirSync(dir, { recursive: true });
const name = `${framework}-${mode}-${Date.now()}.cpuprofile`;
const r = spawnSync(
  process.execPath,
  [
    '--expose-gc',
    '--cpu-prof',
    '--cpu-prof-dir',
    dir,
    '--cpu-prof-name',
    name,
    join(BENCH_DIR, 'frameworks', `${framework}.mjs`),
    mode,
    '--runs',
    String(runs),
    '--repeats',
    '1',
    '--warmup',
    '200',
    '--max-repeat-ms',
    '60000',
  ],
  { cwd: BENCH_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (r.status !== 0) process.exit(r.status ?? 1);
const file = join(dir, name);
const profile = JSON.parse(readFileSync(file, 'utf8'));

// Self time per node = samples hitting it × the sampling interval.
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++)
  dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const byFn = new Map();
const byPkg = new Map();
const where = (url) => {
  if (!url) return '(native/VM)';
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = p.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (p.startsWith('node:')) return 'node (core)';
  if (p.startsWith(join(ROOT_DIR, 'dist'))) return 'corvid dist';
  if (p.startsWith(BENCH_DIR)) return 'bench harness/model';
  return p;
};
for (const node of profile.nodes) {
  const t = dt.get(node.id) ?? 0;
  if (!t) continue;
  const cf = node.callFrame;
  const url = cf.url.replace(/^file:\/\//, '');
  const loc = url ? `${relative(ROOT_DIR, url)}:${cf.lineNumber + 1}` : '';
  const key = `${cf.functionName || '(anonymous)'}  ${loc}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  const pkg = where(cf.url);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
}
const pct = (t) => `${((t / total) * 100).toFixed(1).padStart(5)}%`;
console.log(
  `profile: ${relative(process.cwd(), file)} (${(total / 1000).toFixed(0)} ms sampled, ${(statSync(file).size / 1e6).toFixed(1)} MB)`,
);
console.log('\nself time by package/area:');
for (const [k, t] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(t)}  ${k}`);
console.log(`\ntop ${top} functions by self time:`);
for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(t)}  ${k}`);
