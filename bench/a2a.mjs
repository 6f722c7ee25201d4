#!/usr/bin/env node
// A2A message send throughput and latency: `message/send` (v0.3 JSON-RPC, blocking) to a Corvid
// agent with a zero-latency scripted model, served by `serve()` (the whole `corvid serve` server:
// guards, request ids, metrics), beside a bare `node:http` JSON echo measured in the same run. Servers run in a child process,
// the load generator here (keep-alive connections, one per concurrent client).
// Standalone: `npm run build`, then `node bench/a2a.mjs [--seconds=3] [--rounds=3] [--json]`.
// Targets (issue #5): >= 50% of the bare server's requests/s, < 2 ms p50 added latency.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;

if (process.argv.includes('--serve')) {
  // Child: both servers on 127.0.0.1, ports printed as one JSON line.
  const { serve } = await import(pathToFileURL(join(ROOT, 'dist', 'server', 'index.js')).href);
  const { Agent } = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href);
  const { ScriptedModel } = await import(pathToFileURL(join(ROOT, 'dist', 'testing', 'index.js')).href);
  const agent = new Agent({ name: 'bench', instructions: '-', model: new ScriptedModel(() => ({ text: 'ok' }), { record: false }) });
  const listen = (handler) => new Promise((resolve) => { const s = handler(); s.on('listening', () => resolve(s.address().port)); });
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
    console.log(JSON.stringify({ rss: process.memoryUsage().rss }));
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  if (!existsSync(join(ROOT, 'dist', 'a2a', 'index.js'))) {
    console.error('dist/a2a is missing: run "npm run build" first');
    process.exit(1);
  }
  const seconds = Number(arg('seconds', '3'));
  const json = process.argv.includes('--json');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const nextLine = () => new Promise((resolve) => lines.once('line', (l) => resolve(JSON.parse(l))));
  const ports = await nextLine();
  const idleRss = ports.rss;

  let seq = 0;
  const body = () =>
    JSON.stringify({ jsonrpc: '2.0', id: ++seq, method: 'message/send', params: { message: { kind: 'message', messageId: `m${seq}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } } });

  function post(agent, port, path) {
    return new Promise((resolve, reject) => {
      const data = body();
      const req = http.request({ agent, host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
        let size = 0;
        res.on('data', (c) => (size += c.length));
        res.on('end', () => (res.statusCode === 200 && size > 0 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(data);
    });
  }

  async function load(port, path, clients) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    const warmUntil = performance.now() + 500;
    const until = warmUntil + seconds * 1000;
    const samples = [];
    let errors = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          try {
            await post(agent, port, path);
          } catch {
            errors++;
          }
          if (t >= warmUntil) samples.push(performance.now() - t);
        }
      }),
    );
    agent.destroy();
    samples.sort((a, b) => a - b);
    const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
    return { rps: Math.round(samples.length / seconds), p50: +at(0.5).toFixed(2), p99: +at(0.99).toFixed(2), errors };
  }

  const rows = [];
  // Measured alternately, `rounds` times per concurrency; the round with the median ratio is reported.
  const rounds = Number(arg('rounds', '3'));
  for (const clients of [1, 16, 128]) {
    const cells = [];
    for (let i = 0; i < rounds; i++) {
      const bare = await load(ports.bare, '/', clients);
      const a2a = await load(ports.a2a, '/a2a/bench', clients);
      cells.push({ clients, bare, a2a, throughput: +(a2a.rps / bare.rps).toFixed(2), addedP50: +(a2a.p50 - bare.p50).toFixed(2) });
    }
    cells.sort((x, y) => x.throughput - y.throughput);
    rows.push({ ...cells[cells.length >> 1], ratios: cells.map((x) => x.throughput) });
  }
  child.stdin.write('rss\n');
  const after = await nextLine();
  child.stdin.end();
  if (json) console.log(JSON.stringify({ rows, idleRssMb: +(idleRss / 2 ** 20).toFixed(1), rssAfterMb: +(after.rss / 2 ** 20).toFixed(1) }));
  else {
    console.log(`A2A message/send (v0.3 JSON-RPC, blocking, zero-latency model) vs bare node:http JSON echo, ${seconds}s per cell`);
    console.log('| clients | bare req/s | bare p50 / p99 ms | A2A req/s | A2A p50 / p99 ms | A2A / bare | added p50 ms | errors | ratios of the rounds |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.clients} | ${r.bare.rps} | ${r.bare.p50} / ${r.bare.p99} | ${r.a2a.rps} | ${r.a2a.p50} / ${r.a2a.p99} | ${r.throughput} | ${r.addedP50} | ${r.bare.errors + r.a2a.errors} | ${r.ratios.join(' ')} |`);
    console.log(`server RSS: ${(idleRss / 2 ** 20).toFixed(1)} MB idle (routes created), ${(after.rss / 2 ** 20).toFixed(1)} MB after the run`);
  }
}
