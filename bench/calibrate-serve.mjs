#!/usr/bin/env node
// Calibration of the serving targets: what "N% of the bare echo" means in CPU time per request on
// this machine. Bare `node:http` echo servers that also spin N µs of CPU per request (no
// allocation, no awaits) are measured against the plain echo with the same Node client as
// bench/a2a.mjs and bench/serve.mjs (3 alternating rounds of 2 s per cell).
// `node bench/calibrate-serve.mjs` (not part of `npm run bench`).
import http from 'node:http';
import { spawn } from 'node:child_process';
if (process.argv[2] === '--serve') {
  const burnUs = +process.argv[3];
  const s = http.createServer((req, res) => { const chunks = []; req.on('data', (c) => chunks.push(c)); req.on('end', () => { const body = JSON.parse(Buffer.concat(chunks).toString('utf8')); const t = performance.now() + burnUs / 1000; while (performance.now() < t); const out = JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { echo: body.params } }); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out); }); }).listen(0, '127.0.0.1', () => console.log(s.address().port));
} else {
  const start = (us) => new Promise((r) => { const c = spawn(process.execPath, [process.argv[1], '--serve', String(us)], { stdio: ['ignore', 'pipe', 'inherit'] }); c.stdout.once('data', (d) => r({ c, port: +String(d).trim() })); });
  let seq = 0;
  const body = () => JSON.stringify({ jsonrpc: '2.0', id: ++seq, method: 'message/send', params: { message: { kind: 'message', messageId: `m${seq}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } } });
  async function load(port, clients, seconds = 2) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients }); const until = performance.now() + seconds * 1000; let n = 0;
    await Promise.all(Array.from({ length: clients }, async () => { while (performance.now() < until) { await new Promise((res, rej) => { const d = body(); const q = http.request({ agent, host: '127.0.0.1', port, path: '/', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(d) } }, (r) => { r.resume(); r.on('end', res); }); q.on('error', rej); q.end(d); }); n++; } }));
    agent.destroy(); return n / seconds;
  }
  const bare = await start(0);
  for (const us of [10, 20, 30, 45, 60]) {
    const burn = await start(us);
    const out = [];
    for (const clients of [1, 16]) { const rs = []; for (let i = 0; i < 3; i++) { const b = await load(bare.port, clients); const x = await load(burn.port, clients); rs.push(x / b); } rs.sort(); out.push(`${clients}c ${rs.map((r) => r.toFixed(2)).join('/')}`); }
    console.log(`+${us} µs of CPU per request: ratio ${out.join('  ')}`);
    burn.c.kill();
  }
  bare.c.kill();
}
