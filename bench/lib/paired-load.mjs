// Paired HTTP load: two servers measured in many short alternating slices (A B, B A, A B, …)
// instead of one long run each. The speed of a shared VM drifts by 2× over seconds; long
// back-to-back runs let that drift land on one side of the ratio, while short interleaved slices
// spread it over both. Used by bench/a2a.mjs, bench/serve.mjs and bench/calibrate-serve.mjs.
import http from 'node:http';

/**
 * @typedef {{ port: number, path: string, body: () => string }} Target
 * @typedef {{ rps: number, p50: number, p99: number, errors: number, requests: number, cpuUsPerRequest?: number }} Side
 */

function post(agent, port, path, data) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        let size = 0;
        res.on('data', (c) => (size += c.length));
        res.on('end', () => (res.statusCode === 200 && size > 0 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** One slice: `clients` keep-alive loops for `ms`; returns requests done, seconds and latencies. */
async function slice(agent, target, clients, ms, latencies) {
  const start = performance.now();
  const until = start + ms;
  let done = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await post(agent, target.port, target.path, target.body());
          done++;
          latencies?.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { done, errors, seconds: (performance.now() - start) / 1000 };
}

function side(parts, latencies, cpuUs) {
  const s = Float64Array.from(latencies).sort();
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  const done = parts.reduce((n, p) => n + p.done, 0);
  const seconds = parts.reduce((n, p) => n + p.seconds, 0);
  const out = { rps: done / seconds, p50: at(0.5), p99: at(0.99), errors: parts.reduce((n, p) => n + p.errors, 0), requests: done };
  if (cpuUs !== undefined) out.cpuUsPerRequest = cpuUs / done;
  return out;
}

/**
 * Measures `a` and `b` with `clients` concurrent keep-alive clients each, in `slices` pairs of
 * `sliceMs` slices (order alternating per pair) after a warm-up of each. With `cpu` (the CPU time
 * in µs of the process serving side `k`, 0 = a, 1 = b; e.g. `process.cpuUsage()` when both are
 * served by one process), each side also reports the server's CPU time per request: steadier
 * than requests/s on a shared VM.
 * @param {{ a: Target, b: Target, clients: number, slices?: number, sliceMs?: number, warmupMs?: number, cpu?: (k: 0 | 1) => Promise<number> }} options
 * @returns {Promise<{ a: Side, b: Side, ratio: number, pairRatios: { p25: number, p50: number, p75: number } }>}
 */
export async function pairedLoad({ a, b, clients, slices = 16, sliceMs = 300, warmupMs = 500, cpu }) {
  const agents = [new http.Agent({ keepAlive: true, maxSockets: clients }), new http.Agent({ keepAlive: true, maxSockets: clients })];
  const targets = [a, b];
  const parts = [[], []];
  const latencies = [[], []];
  const pairRatios = [];
  const cpuUs = [0, 0];
  try {
    await slice(agents[0], a, clients, warmupMs);
    await slice(agents[1], b, clients, warmupMs);
    for (let i = 0; i < slices; i++) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      const got = [];
      for (const k of order) {
        const before = cpu && (await cpu(k));
        got[k] = await slice(agents[k], targets[k], clients, sliceMs, latencies[k]);
        if (cpu) cpuUs[k] += (await cpu(k)) - before;
        parts[k].push(got[k]);
      }
      pairRatios.push(got[1].done / got[1].seconds / (got[0].done / got[0].seconds));
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  const sideA = side(parts[0], latencies[0], cpu && cpuUs[0]);
  const sideB = side(parts[1], latencies[1], cpu && cpuUs[1]);
  const sorted = pairRatios.sort((x, y) => x - y);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { a: sideA, b: sideB, ratio: sideB.rps / sideA.rps, pairRatios: { p25: q(0.25), p50: q(0.5), p75: q(0.75) } };
}
