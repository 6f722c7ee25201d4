#!/usr/bin/env node
// `/health` under load: p50/p99 latency of `GET /health` (its own process, a new connection every
// 20 ms, 2 s timeout: a timeout counts as 2,000 ms) against `serve()` — an in-process
// ScriptedModel, JSON logs at `info` written to /dev/null —
//   idle:    no other load;
//   streams: 600 SSE chat streams opened at once (the model answers after 3 s), until all ended;
//   uploads: 8 clients (4 chat, 4 A2A JSON-RPC) each sending 20 MB chunked bodies back to back
//            for 5 s, as fast as the socket takes them (every one is over the 1 MiB limit: 413).
// Also the server's CPU time per stream, the uploads' time to the 413 and bytes sent before the
// connection closed, and the server's peak RSS in each phase.
// Standalone: `npm run build`, then `node bench/health-under-load.mjs [--rounds=3] [--json]`;
// `--root=<checkout>` measures another checkout's dist/ (e.g. a `git worktree` of an earlier commit).
import { fork } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name, def) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const ROOT = resolve(flag('root', fileURLToPath(new URL('..', import.meta.url))));
const child = flag('child');
const STREAMS = Number(flag('streams', 600));
const HOLD_MS = 3000;
const UPLOADERS = 8;
const UPLOAD_BYTES = 20 * 1024 * 1024;
const UPLOAD_PHASE_MS = 5000;
const PROBE_EVERY_MS = 20;
const PROBE_TIMEOUT_MS = 2000;

// ---- the server under test -----------------------------------------------------------------
async function serveChild() {
  const load = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href);
  const [{ Agent }, { ScriptedModel }, { serve }] = await Promise.all([
    load('index.js'),
    load('testing/index.js'),
    load('server/index.js'),
  ]);
  const model = new ScriptedModel(
    (call) => {
      const last = call.prompt.at(-1);
      const text = last?.role === 'user' ? last.content.map((p) => p.text ?? '').join('') : '';
      return text === 'hold' ? { text: 'held', delayMs: HOLD_MS } : { text: `echo: ${text}` };
    },
    { record: false },
  );
  const server = await serve({
    agents: [new Agent({ name: 'echo', model })],
    port: 0,
    server: { logging: { level: 'info' } },
    logDestination: createWriteStream('/dev/null'),
  });
  process.send({ port: server.port });
}

// ---- the /health prober (own process: the load generator's event loop does not delay it) ---
async function probeChild() {
  const port = Number(flag('port'));
  let running = false;
  let samples = [];
  process.on('message', (m) => {
    if (m === 'start') {
      samples = [];
      running = true;
      void loop();
    } else if (m === 'stop') {
      running = false;
    } else if (m === 'exit') process.exit(0);
  });
  const once = () =>
    new Promise((done) => {
      const t = performance.now();
      const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode === 200 ? performance.now() - t : PROBE_TIMEOUT_MS));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => done(PROBE_TIMEOUT_MS));
    });
  const loop = async () => {
    while (running) {
      samples.push(await once());
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
    process.send({ samples });
  };
  process.send('ready');
}

// ---- the load generator ------------------------------------------------------------------
function startChild(kind, extra = []) {
  const p = fork(fileURLToPath(import.meta.url), [`--child=${kind}`, `--root=${ROOT}`, ...extra], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return p;
}

const message = (p) => new Promise((r) => p.once('message', r));
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
/** Bytes the process read with read(2) and friends, sockets included. */
const readBytes = (pid) => Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))[1]);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function stats(xs) {
  if (xs.length === 0) return { n: 0, p50: NaN, p99: NaN, max: NaN, timeouts: 0 };
  const s = Float64Array.from(xs).sort();
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1], timeouts: xs.filter((x) => x >= PROBE_TIMEOUT_MS).length };
}

/** Runs `load` while the prober measures /health; also the server's peak RSS and CPU time. */
async function measured(probe, pid, load) {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const cpu0 = cpuMs(pid);
  const read0 = readBytes(pid);
  probe.send('start');
  const result = await load();
  probe.send('stop');
  const { samples } = await message(probe);
  clearInterval(sampler);
  return { samples, peakRssMb: peak, cpuMs: cpuMs(pid) - cpu0, readMb: (readBytes(pid) - read0) / 1e6, ...result };
}

function streams(port, count) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const body = JSON.stringify({ message: 'hold', stream: true });
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((done) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              path: '/api/v1/agents/echo/chat',
              method: 'POST',
              agent,
              headers: { 'content-type': 'application/json' },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (d) => (text += d));
              res.on('end', () => done(res.statusCode === 200 && text.includes('event: done')));
            },
          );
          req.on('error', () => done(false));
          req.end(body);
        }),
    ),
  ).then((ok) => ({ failed: ok.filter((x) => !x).length }));
}

/** One 20 MB chunked upload, written as fast as the socket takes it: its status, time to it, bytes out. */
function upload(port, path) {
  return new Promise((done) => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    const t = performance.now();
    let sent = 0;
    let status = 0;
    let answeredMs = 0;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      },
      (res) => {
        status = res.statusCode;
        answeredMs = performance.now() - t;
        res.resume();
      },
    );
    req.on('error', () => undefined);
    req.on('close', () => done({ status, answeredMs, sentMb: sent / 1e6 }));
    const write = () => {
      while (!req.destroyed && sent < UPLOAD_BYTES) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!req.destroyed) req.end();
    };
    write();
  });
}

async function uploads(port) {
  const until = performance.now() + UPLOAD_PHASE_MS;
  const results = [];
  await Promise.all(
    Array.from({ length: UPLOADERS }, async (_, i) => {
      while (performance.now() < until)
        results.push({ path: i % 2 ? 'a2a' : 'chat', ...(await upload(port, i % 2 ? '/a2a/echo' : '/api/v1/agents/echo/chat')) });
    }),
  );
  return { uploads: results };
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'server', 'index.js'))) {
    console.error(`${ROOT}/dist is missing: run "npm run build" there first`);
    process.exit(1);
  }
  const rounds = Number(flag('rounds', 3));
  const server = startChild('server');
  const { port } = await message(server);
  const probe = startChild('probe', [`--port=${port}`]);
  await message(probe);
  const phases = { idle: [], streams: [], uploads: [] };
  try {
    await streams(port, 20); // warm-up
    for (let r = 0; r < rounds; r++) {
      phases.idle.push(await measured(probe, server.pid, () => new Promise((done) => setTimeout(() => done({}), 2000))));
      phases.streams.push(await measured(probe, server.pid, () => streams(port, STREAMS)));
      phases.uploads.push(await measured(probe, server.pid, () => uploads(port)));
    }
  } finally {
    probe.send('exit');
    server.kill();
  }
  const health = (list) => ({ ...stats(list.flatMap((p) => p.samples)), p99PerRound: list.map((p) => stats(p.samples).p99) });
  const ups = phases.uploads.flatMap((p) => p.uploads);
  const result = {
    root: ROOT,
    rounds,
    idle: { health: health(phases.idle), peakRssMb: Math.max(...phases.idle.map((p) => p.peakRssMb)) },
    streams: {
      count: STREAMS,
      failed: phases.streams.reduce((a, p) => a + p.failed, 0),
      health: health(phases.streams),
      cpuMsPerStream: phases.streams.map((p) => p.cpuMs / STREAMS),
      peakRssMb: Math.max(...phases.streams.map((p) => p.peakRssMb)),
    },
    uploads: {
      count: ups.length,
      // Per endpoint and status (0: the connection closed before an answer came).
      statuses: ups.reduce((counts, u) => ({ ...counts, [`${u.path} ${u.status}`]: (counts[`${u.path} ${u.status}`] ?? 0) + 1 }), {}),
      answeredMs: stats(ups.filter((u) => u.status).map((u) => u.answeredMs)),
      sentMb: stats(ups.map((u) => u.sentMb)),
      serverReadMbPerUpload: phases.uploads.reduce((a, p) => a + p.readMb, 0) / ups.length,
      health: health(phases.uploads),
      peakRssMb: Math.max(...phases.uploads.map((p) => p.peakRssMb)),
    },
  };
  if (args.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else {
    const f = (n) => (n < 10 ? n.toFixed(1) : n.toFixed(0));
    const row = (name, h, extra) =>
      `| ${name} | ${h.n} | ${f(h.p50)} | ${f(h.p99)} (${h.p99PerRound.map(f).join(' / ')}) | ${f(h.max)} | ${h.timeouts} | ${extra} |`;
    console.log(`| ${rounds} rounds | /health probes | p50 ms | p99 ms (per round) | max ms | timeouts (2 s) | the load |`);
    console.log('| --- | ---: | ---: | --- | ---: | ---: | --- |');
    console.log(row('idle', result.idle.health, `server RSS ${f(result.idle.peakRssMb)} MB`));
    const s = result.streams;
    console.log(
      row(
        `${s.count} SSE streams`,
        s.health,
        `${s.failed} failed; server CPU ${s.cpuMsPerStream.map((x) => x.toFixed(2)).join(' / ')} ms per stream; peak RSS ${f(s.peakRssMb)} MB`,
      ),
    );
    const u = result.uploads;
    console.log(
      row(
        `${UPLOADERS} × 20 MB uploads`,
        u.health,
        `${u.count} uploads (${Object.entries(u.statuses)
          .map(([k, n]) => `${k}: ${n}`)
          .join(
            ', ',
          )}), answered after p50 ${f(u.answeredMs.p50)} / max ${f(u.answeredMs.max)} ms; sent p50 ${f(u.sentMb.p50)} / max ${f(u.sentMb.max)} MB before the close, the server read ${f(u.serverReadMbPerUpload)} MB per upload; peak RSS ${f(u.peakRssMb)} MB`,
      ),
    );
  }
}

if (child === 'server') await serveChild();
else if (child === 'probe') await probeChild();
else await main();
