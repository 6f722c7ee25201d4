#!/usr/bin/env node
// The bash tool's own overhead per command: `shellTool().execute({ command: 'true' })` (rules
// checked on the parsed line, scrubbed environment, process group, output capture) against a bare
// `child_process.spawn` of the same program, and the same with bubblewrap against a bare `bwrap`.
// Calls alternate between the two sides (A B A B …) so machine noise hits both alike; each call is
// timed from the call to its result. `--gap=MS` waits between calls (default 20 ms, a model
// never calls a tool back-to-back; `--gap=0` measures back-to-back calls).
// Standalone: `npm run build`, then `node bench/shell.mjs [--runs=200] [--gap=20] [--json]`.
// Target: the tool within 2x of the bare spawn, and within 2x of bare bwrap when sandboxed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const runs = Number(arg('runs', 200));
const gap = Number(arg('gap', 20));
const { shellTool } = await import(pathToFileURL(join(ROOT, 'dist', 'tools', 'index.js')).href);
const { findBwrap, bwrapArgs } = await import(pathToFileURL(join(ROOT, 'dist', 'tools', 'shell', 'bwrap-sandbox.js')).href);

const ws = mkdtempSync(join(tmpdir(), 'corvid-bench-shell-'));
const ctx = { signal: new AbortController().signal };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function bare(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: ws, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });
}

async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: +q(0.5).toFixed(2), p90: +q(0.9).toFixed(2), mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(2) };
};

async function pair(name, toolSide, bareSide) {
  for (let i = 0; i < 10; i++) {
    await toolSide();
    await bareSide();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    await sleep(gap);
    a.push(await time(toolSide));
    await sleep(gap);
    b.push(await time(bareSide));
  }
  const tool = stats(a);
  const base = stats(b);
  return { name, tool, bare: base, ratioP50: +(tool.p50 / base.p50).toFixed(2), ratioMean: +(tool.mean / base.mean).toFixed(2) };
}

const results = [];
const plain = shellTool({ cwd: ws, isolation: 'none' });
results.push(
  await pair(
    'unconfined: tool `true` vs spawn(bash -c true)',
    () => plain.execute({ command: 'true' }, ctx),
    () => bare('bash', ['--noprofile', '--norc', '-c', 'true']),
  ),
);
results.push(
  await pair(
    'unconfined: tool `true` vs spawn(true)',
    () => plain.execute({ command: 'true' }, ctx),
    () => bare('true', []),
  ),
);
const bwrap = findBwrap();
if (bwrap) {
  const boxed = shellTool({ cwd: ws, isolation: 'bwrap' });
  const args = [...bwrapArgs({ workspace: ws, cwd: ws, network: false }), 'bash', '--noprofile', '--norc', '-c', 'true'];
  results.push(
    await pair(
      'bwrap: tool `true` vs bare bwrap … bash -c true',
      () => boxed.execute({ command: 'true' }, ctx),
      () => bare(bwrap, args),
    ),
  );
} else {
  console.log('bwrap not installed: the sandbox comparison is skipped (apt-get install bubblewrap)');
}
rmSync(ws, { recursive: true, force: true });

if (process.argv.includes('--json')) console.log(JSON.stringify({ runs, gap, results }, null, 2));
else {
  console.log(`runs=${runs} per side, gap=${gap} ms, times in ms (call to result)`);
  for (const r of results) {
    console.log(
      `${r.name}\n  tool  p50 ${r.tool.p50}  p90 ${r.tool.p90}  mean ${r.tool.mean}\n  bare  p50 ${r.bare.p50}  p90 ${r.bare.p90}  mean ${r.bare.mean}\n  ratio p50 ${r.ratioP50}x  mean ${r.ratioMean}x`,
    );
  }
}
