#!/usr/bin/env node
// A2A message send throughput and latency: `message/send` (v0.3 JSON-RPC, blocking) to a Corvid
// agent with a zero-latency scripted model, served by `serve()` (the whole `corvid serve` server:
// guards, request ids, metrics), beside a bare `node:http` JSON echo measured in the same run. Servers run in a child process,
// the load generator here (keep-alive connections, one per concurrent client).
// Standalone: `npm run build`, then `node bench/a2a.mjs [--slices=16] [--json]`.
// `--serve [--root=<tree>] [--model=instant|reply-200ms|stream-50x20ms]` only starts the servers
// (the build of <tree>, default this one; the model of bench/lib/paced-model.mjs): see ab-a2a.mjs.
// Targets (issue #5): >= 50% of the bare server's requests/s, < 2 ms p50 added latency.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { MODEL_SCENARIOS, pacedModel } from './lib/paced-model.mjs';
import { pairedLoad } from './lib/paired-load.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;

if (process.argv.includes('--serve')) {
  // Child: both servers on 127.0.0.1, ports printed as one JSON line.
  const root = arg('root', ROOT);
  const { serve } = await import(pathToFileURL(join(root, 'dist', 'server', 'index.js')).href);
  const { Agent } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
  const { ScriptedModel } = await import(pathToFileURL(join(root, 'dist', 'testing', 'index.js')).href);
  const scenario = arg('model', 'instant');
  if (!(scenario in MODEL_SCENARIOS)) throw new Error(`--model: one of ${Object.keys(MODEL_SCENARIOS).join(', ')}`);
  const model =
    scenario === 'instant' ? new ScriptedModel(() => ({ text: 'ok' }), { record: false }) : pacedModel(MODEL_SCENARIOS[scenario]);
  const agent = new Agent({ name: 'bench', instructions: '-', model });
  const listen = (handler) =>
    new Promise((resolve) => {
      const s = handler();
      s.on('listening', () => resolve(s.address().port));
    });
  const bare = await listen(() =>
    http
      .createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const out = JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { echo: body.params } });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
        });
      })
      .listen(0, '127.0.0.1'),
  );
  // The whole `corvid serve` server (guards, request ids, metrics), A2A at /a2a/bench.
  const server = await serve({ agents: [agent], port: 0, server: { logging: { level: 'silent' } } });
  const a2aPort = server.port;
  console.log(JSON.stringify({ bare, a2a: a2aPort, rss: process.memoryUsage().rss }));
  process.stdin.on('data', () => {
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ rss: process.memoryUsage().rss, cpuUs: cpu.user + cpu.system }));
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  if (!existsSync(join(ROOT, 'dist', 'a2a', 'index.js'))) {
    console.error('dist/a2a is missing: run "npm run build" first');
    process.exit(1);
  }
  const json = process.argv.includes('--json');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const nextLine = () => new Promise((resolve) => lines.once('line', (l) => resolve(JSON.parse(l))));
  const ports = await nextLine();
  const idleRss = ports.rss;

  let seq = 0;
  const body = () =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: ++seq,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: `m${seq}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } },
    });

  const rows = [];
  // Bare and A2A alternate in short slices (bench/lib/paired-load.mjs), so the drifting speed of
  // a shared VM lands on both sides of the ratio.
  const slices = Number(arg('slices', '16'));
  for (const clients of [1, 16, 128]) {
    const r = await pairedLoad({
      a: { port: ports.bare, path: '/', body },
      b: { port: ports.a2a, path: '/a2a/bench', body },
      clients,
      slices,
      cpu: async () => (child.stdin.write('cpu\n'), (await nextLine()).cpuUs),
    });
    rows.push({
      clients,
      bare: r.a,
      a2a: r.b,
      throughput: +r.ratio.toFixed(2),
      addedP50: +(r.b.p50 - r.a.p50).toFixed(2),
      pairRatios: r.pairRatios,
    });
  }
  child.stdin.write('rss\n');
  const after = await nextLine();
  child.stdin.end();
  if (json)
    console.log(JSON.stringify({ rows, idleRssMb: +(idleRss / 2 ** 20).toFixed(1), rssAfterMb: +(after.rss / 2 ** 20).toFixed(1) }));
  else {
    const f = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
    const pct = (n) => `${(n * 100).toFixed(0)}%`;
    console.log(
      `A2A message/send (v0.3 JSON-RPC, blocking, zero-latency model) vs bare node:http JSON echo, ${slices} alternating pairs of 0.3 s slices per cell`,
    );
    console.log(
      '| clients | bare req/s | bare p50 / p99 ms | A2A req/s | A2A p50 / p99 ms | A2A / bare | added p50 ms | errors | pair ratios p25–p75 | server CPU µs/request bare / A2A |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.clients} | ${f(r.bare.rps)} | ${f(r.bare.p50)} / ${f(r.bare.p99)} | ${f(r.a2a.rps)} | ${f(r.a2a.p50)} / ${f(r.a2a.p99)} | ${pct(r.throughput)} | ${f(r.addedP50)} | ${r.bare.errors + r.a2a.errors} | ${pct(r.pairRatios.p25)}–${pct(r.pairRatios.p75)} | ${r.bare.cpuUsPerRequest.toFixed(0)} / ${r.a2a.cpuUsPerRequest.toFixed(0)} |`,
      );
    console.log(
      `server RSS: ${(idleRss / 2 ** 20).toFixed(1)} MB idle (routes created), ${(after.rss / 2 ** 20).toFixed(1)} MB after the run`,
    );
  }
}
