#!/usr/bin/env node
// Calibration of the serving targets: what "N% of the bare echo" means in CPU time per request on
// this machine. Bare `node:http` echo servers that also spin N µs of CPU per request (no
// allocation, no awaits) are measured against the plain echo with the same paired load as
// bench/a2a.mjs and bench/serve.mjs (bench/lib/paired-load.mjs). "+0" is the echo against a copy
// of itself: how far from 100% the method reads when both sides are the same.
// `node bench/calibrate-serve.mjs` (not part of `npm run bench`).
import { spawn } from 'node:child_process';
import http from 'node:http';

import { pairedLoad } from './lib/paired-load.mjs';

if (process.argv[2] === '--serve') {
  const burnUs = +process.argv[3];
  const s = http
    .createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const t = performance.now() + burnUs / 1000;
        while (performance.now() < t);
        const out = JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { echo: body.params } });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
      });
    })
    .listen(0, '127.0.0.1', () => console.log(s.address().port));
} else {
  const start = (us) =>
    new Promise((r) => {
      const c = spawn(process.execPath, [process.argv[1], '--serve', String(us)], { stdio: ['ignore', 'pipe', 'inherit'] });
      c.stdout.once('data', (d) => r({ c, port: +String(d).trim() }));
    });
  let seq = 0;
  const body = () =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: ++seq,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: `m${seq}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } },
    });
  const bare = await start(0);
  const spins = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n >= 0);
  for (const us of spins.length ? spins : [0, 10, 20, 30, 45, 60]) {
    const burn = await start(us);
    const out = [];
    for (const clients of [1, 16, 128]) {
      const r = await pairedLoad({ a: { port: bare.port, path: '/', body }, b: { port: burn.port, path: '/', body }, clients, slices: 10 });
      out.push(
        `${clients}c ${(r.ratio * 100).toFixed(0)}% (pairs ${(r.pairRatios.p25 * 100).toFixed(0)}–${(r.pairRatios.p75 * 100).toFixed(0)})`,
      );
    }
    console.log(`+${us} µs of CPU per request: ${out.join('  ')}`);
    burn.c.kill();
  }
  bare.c.kill();
}
