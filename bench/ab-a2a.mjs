#!/usr/bin/env node
// A/B of two builds of Corvid serving A2A `message/send` (each tree's `bench/a2a.mjs --serve`,
// after `npm run build` in each), measured against each other in alternating slices
// (lib/paired-load.mjs). Steadier than comparing two runs of bench/a2a.mjs: on this VM a build
// measured against itself reads 92–114% per run, so repeat a run before trusting a difference.
//   node bench/ab-a2a.mjs <tree A> <tree B> [--clients=16,128] [--slices=16]
// e.g. `git worktree add /tmp/base HEAD~3 && ln -s "$PWD/node_modules" /tmp/base/ && (cd /tmp/base && npm run build)`.
// ENVA / ENVB ("K=V K2=V2") add environment variables to one side's server.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { pairedLoad } from './lib/paired-load.mjs';

const args = process.argv.slice(2);
const flag = (name, def) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const [A, B] = args.filter((a) => !a.startsWith('--')).map((p) => resolve(p));
if (!A || !B) {
  console.error('usage: node bench/ab-a2a.mjs <tree A> <tree B> [--clients=16,128] [--slices=16]');
  process.exit(2);
}
const envOf = (v) => Object.fromEntries((v ?? '').split(' ').filter(Boolean).map((kv) => kv.split('=')));

async function start(root, extra) {
  const child = spawn(process.execPath, [`${root}/bench/a2a.mjs`, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...envOf(extra) } });
  const line = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
  return { child, port: JSON.parse(line).a2a };
}

const a = await start(A, process.env.ENVA);
const b = await start(B, process.env.ENVB);
let seq = 0;
const body = () => JSON.stringify({ jsonrpc: '2.0', id: ++seq, method: 'message/send', params: { message: { kind: 'message', messageId: `m${seq}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } } });
try {
  for (const clients of flag('clients', '1,16,128').split(',').map(Number)) {
    const r = await pairedLoad({ a: { port: a.port, path: '/a2a/bench', body }, b: { port: b.port, path: '/a2a/bench', body }, clients, slices: Number(flag('slices', '16')) });
    const pct = (x) => `${(x * 100).toFixed(0)}%`;
    console.log(`${clients} clients: B serves ${pct(r.ratio)} of A's requests/s (pairs ${pct(r.pairRatios.p25)}–${pct(r.pairRatios.p75)}; A ${r.a.rps.toFixed(0)}, B ${r.b.rps.toFixed(0)} req/s)`);
  }
} finally {
  a.child.stdin.end();
  b.child.stdin.end();
}
