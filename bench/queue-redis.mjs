#!/usr/bin/env node
// Background runs on the redis queue (BullMQ, Redis Streams for the events): enqueue→start latency
// (p50/p95: from `runs.submit()` to the run's first event in the worker) with runs submitted one by
// one at a pace the worker keeps up with, and throughput (runs/s: a batch submitted at once, until
// the last one is final), with a model answering at once and one answering after 200 ms.
// The submitting and the working runtime are separate (own store handle, own Redis connections) in
// one process; the store is a SQLite file, the model a local OpenAI-compatible server. First, the
// queue alone (BullMQ with a handler doing nothing): what the queue itself adds.
//
//   npm run build && node bench/queue-redis.mjs [--redis=redis://127.0.0.1:6379] [--runs=200]
//     [--paced=60] [--concurrency=32] [--delays=0,200] [--backend=redis|embedded] [--no-queue-alone] [--json]
//
// --backend=embedded runs the same measurement on the embedded queue, for comparison.
//
// The bench uses its own key prefix and deletes its keys at the end.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist', 'runtime', 'index.js');
if (!existsSync(DIST)) {
  console.error(`${DIST} is missing: run "npm run build" first`);
  process.exit(1);
}
const { loadRuntime } = await import(pathToFileURL(DIST).href);
const { Redis } = await import('ioredis');

const args = process.argv.slice(2);
const arg = (name, d) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d;
const REDIS = arg('redis', process.env.CORVID_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const RUNS = Number(arg('runs', 200));
const PACED = Number(arg('paced', 60));
const CONCURRENCY = Number(arg('concurrency', 32));
const DELAYS = arg('delays', '0,200').split(',').map(Number);
const BACKEND = arg('backend', 'redis');
const json = args.includes('--json');

/** A local OpenAI-compatible chat completions server answering (streamed or not) after `delayMs`. */
async function startModel(delayMs) {
  const chunk = (delta, finish) =>
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'fake',
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(finish ? { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } } : {}),
    });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () =>
      setTimeout(() => {
        if (JSON.parse(body || '{}').stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`data: ${chunk({ role: 'assistant', content: 'Noted.' }, null)}\n\ndata: ${chunk({}, 'stop')}\n\ndata: [DONE]\n\n`);
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model: 'fake',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Noted.' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
          }),
        );
      }, delayMs),
    );
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { close: () => new Promise((r) => server.close(r)), url: `http://127.0.0.1:${server.address().port}/v1` };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(delayMs) {
  const model = await startModel(delayMs);
  const dir = mkdtempSync(join(tmpdir(), 'corvid-bench-queue-'));
  const prefix = `corvid-bench-${randomBytes(4).toString('hex')}`;
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `models:\n  fake:\n    provider: openai-compatible\n    base_url: ${model.url}\n    model: fake\n    retry:\n      max_retries: 0\n` +
      `defaults:\n  model: fake\nstorage:\n  path: ./runs.db\nqueue:\n  backend: ${BACKEND}\n` +
      (BACKEND === 'redis' ? `  url: ${REDIS}\n  prefix: ${prefix}\n` : '') +
      `  concurrency: ${CONCURRENCY}\n` +
      `agents:\n  helper:\n    instructions: Answer briefly.\n`,
  );
  const client = await loadRuntime({ cwd: dir, dotenv: false });
  const worker = await loadRuntime({ cwd: dir, dotenv: false });
  const started = new Map();
  const w = await worker.runs.work({
    onEvent: (e) => {
      if (!started.has(e.runId)) started.set(e.runId, performance.now());
    },
  });
  const submitted = new Map();
  const submit = async (i) => {
    const t = performance.now();
    const run = await client.runs.submit('helper', `question ${i}`);
    submitted.set(run.runId, t);
    return run.runId;
  };
  const settle = (ids) => Promise.all(ids.map((id) => client.runs.wait(id, { timeoutMs: 120_000, pollMs: 20 })));

  // Warm-up (connections, SQLite pages, BullMQ scripts).
  await settle(await Promise.all(Array.from({ length: 10 }, (_, i) => submit(`w${i}`))));

  // Latency: one run at a time, each submitted once the previous one has started.
  const latencies = [];
  const pacedIds = [];
  for (let i = 0; i < PACED; i++) {
    const id = await submit(`p${i}`);
    pacedIds.push(id);
    while (!started.has(id)) await new Promise((r) => setTimeout(r, 1));
    latencies.push(started.get(id) - submitted.get(id));
  }
  await settle(pacedIds);

  // Throughput: RUNS at once.
  const t0 = performance.now();
  const ids = await Promise.all(Array.from({ length: RUNS }, (_, i) => submit(`b${i}`)));
  const done = await settle(ids);
  const seconds = (performance.now() - t0) / 1000;
  const completed = done.filter((r) => r?.status === 'completed').length;
  if (completed < RUNS) console.error('not completed:', JSON.stringify(done.find((r) => r?.status !== 'completed')));
  const backlog = ids.map((id) => started.get(id) - submitted.get(id)).sort((a, b) => a - b);

  await w.stop();
  await Promise.all([client.close(), worker.close()]);
  await model.close();
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  return {
    modelDelayMs: delayMs,
    enqueueToStartMs: { p50: pct(latencies, 50), p95: pct(latencies, 95), n: latencies.length },
    batch: {
      runs: RUNS,
      completed,
      seconds,
      runsPerSecond: completed / seconds,
      enqueueToStartP50: pct(backlog, 50),
      enqueueToStartP95: pct(backlog, 95),
    },
    concurrency: CONCURRENCY,
  };
}

/** The queue alone (no store, no model): enqueue→handler latency one at a time, and jobs/s for a batch. */
async function measureQueueAlone() {
  const { openRedisRunQueue } = await import(pathToFileURL(join(ROOT, 'dist', 'queue', 'redis-run-queue.js')).href);
  const prefix = `corvid-bench-${randomBytes(4).toString('hex')}`;
  const queue = await openRedisRunQueue({ url: REDIS, prefix });
  const seen = new Map();
  const waiters = new Map();
  const worker = await queue.work(
    async (id) => {
      seen.set(id, performance.now());
      waiters.get(id)?.();
    },
    { concurrency: CONCURRENCY },
  );
  const latencies = [];
  for (let i = 0; i < 200; i++) {
    const id = `q${i}`;
    const handled = new Promise((r) => waiters.set(id, r));
    const t = performance.now();
    await queue.enqueue(id);
    await handled;
    latencies.push(seen.get(id) - t);
  }
  const N = 2000;
  const t0 = performance.now();
  const all = Promise.all(Array.from({ length: N }, (_, i) => new Promise((r) => waiters.set(`b${i}`, r))));
  await Promise.all(Array.from({ length: N }, (_, i) => queue.enqueue(`b${i}`)));
  await all;
  const seconds = (performance.now() - t0) / 1000;
  await worker.stop();
  await queue.close();
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  latencies.sort((a, b) => a - b);
  return {
    enqueueToHandlerMs: { p50: pct(latencies, 50), p95: pct(latencies, 95), n: latencies.length },
    jobs: N,
    jobsPerSecond: N / seconds,
  };
}

const alone = BACKEND === 'redis' && !args.includes('--no-queue-alone') ? await measureQueueAlone() : undefined;
const results = [];
for (const d of DELAYS) results.push(await measure(d));
if (json) console.log(JSON.stringify({ queueAlone: alone, runs: results }, null, 2));
else {
  console.log(
    `${BACKEND === 'redis' ? `redis queue (BullMQ) on ${REDIS.replace(/\/\/[^@]*@/, '//***@')}` : `${BACKEND} queue`}, SQLite store, 1 worker × ${CONCURRENCY} runs at once`,
  );
  const f = (n) => n.toFixed(1);
  if (alone)
    console.log(
      `queue alone (no-op handler): enqueue→handler p50 ${f(alone.enqueueToHandlerMs.p50)} ms, p95 ${f(alone.enqueueToHandlerMs.p95)} ms (one at a time); ${alone.jobs} at once: ${f(alone.jobsPerSecond)} jobs/s`,
    );
  for (const r of results) {
    console.log(
      `model ${r.modelDelayMs} ms: enqueue→start p50 ${f(r.enqueueToStartMs.p50)} ms, p95 ${f(r.enqueueToStartMs.p95)} ms (one at a time, n=${r.enqueueToStartMs.n}); ` +
        `${r.batch.runs} at once: ${f(r.batch.runsPerSecond)} runs/s (${r.batch.completed} completed in ${f(r.batch.seconds)} s, enqueue→start p50 ${f(r.batch.enqueueToStartP50)} ms, p95 ${f(r.batch.enqueueToStartP95)} ms)`,
    );
  }
}
process.exit(0);
