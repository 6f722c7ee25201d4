#!/usr/bin/env node
// A/B of two builds of Corvid serving A2A (v0.3 JSON-RPC), measured against each other in
// alternating slices (lib/paired-load.mjs), both served by this tree's `bench/a2a.mjs --serve`
// loading each tree's `dist/` (run `npm run build` in each). Steadier than comparing two runs of
// bench/a2a.mjs: on this VM a build measured against itself reads 92–114% per run, so repeat a
// run before trusting a difference.
//   node bench/ab-a2a.mjs <tree A> <tree B> [--clients=1,16,128] [--slices=16] [--scenario=…]
// Scenarios (the model: bench/lib/paced-model.mjs):
//   instant         blocking `message/send`, the model answers at once (the server's own cost)
//   reply-200ms     blocking `message/send`, the model answers after 200 ms
//   stream-50x20ms  `message/stream` (SSE), the model streams 50 tokens over 1 s; latency is the whole stream
// e.g. `git worktree add /tmp/base HEAD~3 && ln -s "$PWD/node_modules" /tmp/base/ && (cd /tmp/base && npm run build)`.
// ENVA / ENVB ("K=V K2=V2") add environment variables to one side's server.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { MODEL_SCENARIOS } from './lib/paced-model.mjs';
import { pairedLoad } from './lib/paired-load.mjs';

const args = process.argv.slice(2);
const flag = (name, def) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const [A, B] = args.filter((a) => !a.startsWith('--')).map((p) => resolve(p));
const scenario = flag('scenario', 'instant');
if (!A || !B || !(scenario in MODEL_SCENARIOS)) {
  console.error(
    `usage: node bench/ab-a2a.mjs <tree A> <tree B> [--clients=1,16,128] [--slices=16] [--scenario=${Object.keys(MODEL_SCENARIOS).join('|')}]`,
  );
  process.exit(2);
}
const envOf = (v) =>
  Object.fromEntries(
    (v ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => kv.split('=')),
  );
const serveScript = fileURLToPath(new URL('./a2a.mjs', import.meta.url));

async function start(root, extra) {
  const child = spawn(process.execPath, [serveScript, '--serve', `--root=${root}`, `--model=${scenario}`], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...envOf(extra) },
  });
  const line = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
  return { child, port: JSON.parse(line).a2a };
}

/** A server process's CPU time (user + system) in µs, from /proc (Linux); NaN elsewhere. */
const TICK_US = 1e6 / 100; // USER_HZ
async function cpuUsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return NaN;
  }
}

const a = await start(A, process.env.ENVA);
const b = await start(B, process.env.ENVB);
const method = scenario.startsWith('stream') ? 'message/stream' : 'message/send';
// Slices long enough for many requests each when the model takes its time.
const sliceMs = Number(flag('slice-ms', scenario === 'instant' ? '300' : scenario.startsWith('stream') ? '4000' : '2000'));
let seq = 0;
const body = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: ++seq,
    method,
    params: { message: { kind: 'message', messageId: `m${seq}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } },
  });
console.log(
  `${method}, model ${scenario}, ${flag('slices', '16')} alternating pairs of ${sliceMs / 1000} s slices per row; A = ${A}, B = ${B}`,
);
try {
  for (const clients of flag('clients', '1,16,128').split(',').map(Number)) {
    const r = await pairedLoad({
      a: { port: a.port, path: '/a2a/bench', body },
      b: { port: b.port, path: '/a2a/bench', body },
      clients,
      slices: Number(flag('slices', '16')),
      sliceMs,
      warmupMs: Math.max(500, sliceMs),
      cpu: (k) => cpuUsOf((k === 0 ? a : b).child.pid),
    });
    const pct = (x) => `${(x * 100).toFixed(0)}%`;
    const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
    console.log(
      `${clients} clients: B serves ${pct(r.ratio)} of A's requests/s (pairs ${pct(r.pairRatios.p25)}–${pct(r.pairRatios.p75)}; A ${r.a.rps.toFixed(0)}, B ${r.b.rps.toFixed(0)} req/s; ` +
        `p50 / p99 ms A ${ms(r.a.p50)} / ${ms(r.a.p99)}, B ${ms(r.b.p50)} / ${ms(r.b.p99)}; errors A ${r.a.errors}, B ${r.b.errors}; ` +
        `server CPU µs/request A ${r.a.cpuUsPerRequest.toFixed(0)}, B ${r.b.cpuUsPerRequest.toFixed(0)})`,
    );
  }
} finally {
  a.child.stdin.end();
  b.child.stdin.end();
}
