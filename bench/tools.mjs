#!/usr/bin/env node
// Built-in tools: grep over a 10,000-file tree (ripgrep engine and JavaScript fallback) against
// `rg` run alone on the same tree, and read_file / edit_file on a 5 MB file. From the repo root,
// after `npm run build`:
//
//   node bench/tools.mjs            (7 timed runs each after 2 warm-ups; medians)
//   node bench/tools.mjs --runs=15
//
// Needs `rg` on PATH for the ripgrep comparison. Prints a Markdown table and exits 1 when a target
// is missed: grep (ripgrep) ≤ 1.5× rg alone, grep (JS) ≤ 5× rg alone, read_file and edit_file on
// 5 MB < 20 ms each.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(/--runs=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 7);
const { fileTools } = await import(join(ROOT, 'dist', 'tools', 'index.js'));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  for (let i = 0; i < 2; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

// A 10,000-file tree: 100 folders × 100 files of ~40 lines; one line in 50 files has the needle.
const dir = mkdtempSync(join(os.tmpdir(), 'corvid-bench-tools-'));
const tree = join(dir, 'tree');
let n = 0;
for (let d = 0; d < 100; d++) {
  mkdirSync(join(tree, `pkg${d}`, 'src'), { recursive: true });
  for (let f = 0; f < 100; f++) {
    const lines = Array.from({ length: 40 }, (_, i) => `export const value${i} = compute(${d}, ${f}, ${i}); // filler text for the search`);
    if (n % 200 === 0) lines[20] = 'export function needleHandler() { return 42; }';
    writeFileSync(join(tree, `pkg${d}`, 'src', `file${f}.ts`), `${lines.join('\n')}\n`);
    n++;
  }
}
writeFileSync(join(tree, '.gitignore'), 'dist/\n');

const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
const tool = (engine, name) => fileTools({ root: tree, ripgrep: engine }).find((t) => t.name === name);
const ctx = { signal: new AbortController().signal };
const args = { pattern: 'needle[A-Z]\\w+', max_results: 200 };

const rows = [];
const targets = [];
// The three searches are timed interleaved (one of each per round), so load changes on a shared
// machine hit them alike; medians of the rounds.
const ops = [];
if (rg) {
  ops.push([
    '`rg -n --hidden` alone (child process)',
    () => {
      const r = spawnSync(rg, ['-n', '--hidden', 'needle[A-Z]\\w+'], { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      if (r.status !== 0) throw new Error(`rg failed: ${r.stderr}`);
    },
  ]);
  ops.push([
    '`grep` tool, ripgrep engine',
    async () => {
      const out = await tool('auto', 'grep').execute(args, ctx);
      if (out.engine !== 'ripgrep' || out.matches !== 50) throw new Error(`unexpected: ${JSON.stringify(out).slice(0, 200)}`);
    },
  ]);
}
ops.push([
  '`grep` tool, JavaScript engine',
  async () => {
    const out = await tool('js', 'grep').execute(args, ctx);
    if (out.engine !== 'js' || out.matches !== 50) throw new Error(`unexpected: ${JSON.stringify(out).slice(0, 200)}`);
  },
]);
const samples = ops.map(() => []);
for (let round = 0; round < runs + 2; round++) {
  for (const [i, [, fn]] of ops.entries()) {
    const t = performance.now();
    await fn();
    if (round >= 2) samples[i].push(performance.now() - t);
  }
}
const medians = samples.map(median);
const rgAlone = rg ? medians[0] : undefined;
for (const [i, [name]] of ops.entries()) rows.push([name, medians[i], rgAlone && i > 0 ? `${(medians[i] / rgAlone).toFixed(2)}× rg` : '']);
if (rgAlone) {
  targets.push(['grep (ripgrep) ≤ 1.5× rg', medians[1] / rgAlone <= 1.5]);
  targets.push(['grep (JS) ≤ 5× rg', medians[2] / rgAlone <= 5]);
}

// A 5 MB file: 100,000 lines of ~50 bytes.
const big = join(tree, 'big.txt');
const bigLines = Array.from({ length: 100_000 }, (_, i) => `line ${String(i).padStart(6, '0')} of the large file, some text`);
writeFileSync(big, `${bigLines.join('\n')}\n`);
const read = await time(async () => {
  const out = await tool('auto', 'read_file').execute({ path: 'big.txt', offset: 50_000, limit: 100 }, ctx);
  if (!out.content.includes('line 050000')) throw new Error('read_file returned the wrong lines');
});
rows.push(['`read_file` 5 MB file, 100 lines from the middle', read, '']);
const readHead = await time(() => tool('auto', 'read_file').execute({ path: 'big.txt' }, ctx));
rows.push(['`read_file` 5 MB file, from the start (256 KiB cap)', readHead, '']);
let flip = false;
const edit = await time(async () => {
  const [from, to] = flip
    ? ['line 050000 of the EDITED file', 'line 050000 of the large file']
    : ['line 050000 of the large file', 'line 050000 of the EDITED file'];
  flip = !flip;
  const out = await tool('auto', 'edit_file').execute({ path: 'big.txt', old_string: from, new_string: to }, ctx);
  if (out.replacements !== 1) throw new Error('edit failed');
});
rows.push(['`edit_file` 5 MB file, one line in the middle (atomic write + diff)', edit, '']);
targets.push(['read_file 5 MB < 20 ms', read < 20 && readHead < 20], ['edit_file 5 MB < 20 ms', edit < 20]);

rmSync(dir, { recursive: true, force: true });
console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), median of ${runs} runs after 2 warm-ups\n`);
console.log('| Operation | Median | Ratio |\n|---|---:|---:|');
for (const [name, ms, ratio] of rows) console.log(`| ${name} | ${ms.toFixed(1)} ms | ${ratio} |`);
console.log('');
for (const [name, ok] of targets) console.log(`${ok ? 'met   ' : 'MISSED'} ${name}`);
process.exit(targets.every(([, ok]) => ok) ? 0 : 1);
