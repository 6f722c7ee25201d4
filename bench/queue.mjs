#!/usr/bin/env node
// Background runs through each queue backend, in one process (`runtime.runs`: submit → a worker
// in the same process → done), against a fake Chat Completions server on 127.0.0.1 answering at
// once or after 200 ms. From the repo root, after `npm run build`:
//
//   node bench/queue.mjs [--backends=embedded,postgres,redis] [--runs=200] [--latency-runs=40]
//     [--concurrency=8] [--delays=0,200] [--separate] [--no-queue-alone] [--json]
//     [--url=postgres://postgres@127.0.0.1:5432/test] [--redis=redis://127.0.0.1:6379]
//
//   submit → start   runs submitted one at a time to idle workers: from `submit()` to the run's
//   submit → model   first event in the worker, and to its model request arriving at the fake server, p50 / p95
//   runs/s           `runs` runs submitted at once: first submit → last run completed
//
// --separate submits from a runtime of its own (its own store handle and queue connections), as a
// server does for a worker process. On the redis backend the queue is first measured alone
// (BullMQ with a handler doing nothing: what the queue itself adds; --no-queue-alone skips it).
// Flags take `--name=value` or `--name value`; `--backend` is `--backends`, `--paced` is `--latency-runs`.
//
// A backend is an entry of BACKENDS: the `storage:` / `queue:` YAML it runs on and what cleans up
// after it (a Postgres schema, a Redis key prefix…). Not part of `bench/run.mjs` (it needs the
// database services; run it by hand).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadRuntime } from '../dist/runtime/index.js';

const argv = process.argv.slice(2);
/** The value of `--name=value` / `--name value` (the first of `names` given), else `fallback`. */
function arg(names, fallback) {
  for (const name of [names].flat()) {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i === -1) continue;
    if (argv[i].includes('=')) return argv[i].slice(argv[i].indexOf('=') + 1);
    if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) return argv[i + 1];
  }
  return fallback;
}
const flag = (name) => argv.includes(`--${name}`);
const PG_URL = arg('url', process.env.CORVID_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const REDIS_URL = arg('redis', process.env.CORVID_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const RUNS = Number(arg('runs', 200));
const LATENCY_RUNS = Number(arg(['latency-runs', 'paced'], 40));
const CONCURRENCY = Number(arg('concurrency', 8));
const DELAYS = arg('delays', '0,200').split(',').map(Number);
const SEPARATE = flag('separate');
const JSON_OUT = flag('json');

async function dropPgSchemas(...schemas) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await c.end();
}

/** Deletes the Redis keys under `prefix:`. */
async function dropRedisKeys(prefix) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}

/** name → { yaml(tag), cleanup(tag) }; `embedded-pg` is the embedded queue on Postgres storage (what the store alone costs). */
const BACKENDS = {
  embedded: {
    yaml: () => `storage:\n  path: ./corvid.db\nqueue:\n  backend: embedded\n  concurrency: ${CONCURRENCY}\n`,
    cleanup: async () => undefined,
  },
  'embedded-pg': {
    yaml: (tag) =>
      `storage:\n  url: "${PG_URL}"\n  schema: qb_${tag.replace(/\W/g, '_')}\nqueue:\n  backend: embedded\n  concurrency: ${CONCURRENCY}\n`,
    cleanup: (tag) => dropPgSchemas(`qb_${tag.replace(/\W/g, '_')}`),
  },
  postgres: {
    yaml: (tag) => `storage:\n  url: "${PG_URL}"\n  schema: qb_${tag}\nqueue:\n  backend: postgres\n  concurrency: ${CONCURRENCY}\n`,
    cleanup: (tag) => dropPgSchemas(`qb_${tag}`, `qb_${tag}_queue`),
  },
  redis: {
    yaml: (tag) =>
      `storage:\n  path: ./corvid.db\nqueue:\n  backend: redis\n  url: ${REDIS_URL}\n  prefix: qb-${tag}\n  concurrency: ${CONCURRENCY}\n`,
    cleanup: (tag) => dropRedisKeys(`qb-${tag}`),
  },
};

/** A Chat Completions server answering "ok" (streamed or not) after `delayMs`; `onRequest(input)` on arrival. */
async function fakeModel(onRequest) {
  let delayMs = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = JSON.parse(body || '{}');
      onRequest(String(json.messages?.find((m) => m.role === 'user')?.content ?? ''));
      const base = { id: 'chatcmpl-bench', created: 0, model: 'bench' };
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      const answer = () => {
        if (!json.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
              usage,
            }),
          );
        }
        const chunk = (choices, extra = {}) =>
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          chunk([{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }]) +
            chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage }) +
            'data: [DONE]\n\n',
        );
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    setDelay: (ms) => (delayMs = ms),
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
  };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Opens the runtime(s) of a project: the working one, and with --separate another that submits. */
async function openRuntimes(dir, started) {
  const runtime = await loadRuntime({ cwd: dir, dotenv: false });
  const client = SEPARATE ? await loadRuntime({ cwd: dir, dotenv: false }) : runtime;
  const worker = await runtime.runs.work({
    concurrency: CONCURRENCY,
    onEvent: (e) => {
      if (!started.has(e.runId)) started.set(e.runId, performance.now());
    },
  });
  return {
    client,
    close: async () => {
      await worker.stop();
      if (client !== runtime) await client.close();
      await runtime.close();
    },
  };
}

async function measure(name, modelDelayMs) {
  const tag = `${process.pid}_${name}_${modelDelayMs}`;
  const dir = mkdtempSync(join(os.tmpdir(), 'corvid-queue-bench-'));
  const arrived = new Map();
  const started = new Map();
  const model = await fakeModel((input) => {
    if (!arrived.has(input)) arrived.set(input, performance.now());
  });
  model.setDelay(modelDelayMs);
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `models:\n  fake:\n    provider: openai-compatible\n    base_url: ${model.url}/v1\n    model: test\n    retry:\n      max_retries: 0\n` +
      `defaults:\n  model: fake\nagents:\n  helper:\n    instructions: Be brief.\n` +
      BACKENDS[name].yaml(tag),
  );
  const { client, close } = await openRuntimes(dir, started);
  try {
    // Warm-up (the queue opens, the store's statements are prepared).
    await client.runs.wait((await client.runs.submit('helper', 'warm-up')).runId, { timeoutMs: 30_000, pollMs: 5 });
    const toStart = [];
    const toModel = [];
    for (let i = 0; i < LATENCY_RUNS; i++) {
      const input = `latency ${i}`;
      const t = performance.now();
      const run = await client.runs.submit('helper', input);
      await client.runs.wait(run.runId, { timeoutMs: 30_000, pollMs: 5 });
      toStart.push(started.get(run.runId) - t);
      toModel.push(arrived.get(input) - t);
    }
    const t0 = performance.now();
    const ids = [];
    for (let i = 0; i < RUNS; i += 20)
      ids.push(
        ...(await Promise.all(Array.from({ length: Math.min(20, RUNS - i) }, (_, j) => client.runs.submit('helper', `run ${i + j}`)))).map(
          (r) => r.runId,
        ),
      );
    const done = await Promise.all(ids.map((id) => client.runs.wait(id, { timeoutMs: 120_000, pollMs: 20 })));
    const seconds = (performance.now() - t0) / 1000;
    const failed = done.filter((r) => r.status !== 'completed').length;
    return {
      name,
      modelDelayMs,
      start: { p50: pct(toStart, 50), p95: pct(toStart, 95) },
      model: { p50: pct(toModel, 50), p95: pct(toModel, 95) },
      runsPerSec: RUNS / seconds,
      failed,
    };
  } finally {
    await close();
    await model.close();
    await BACKENDS[name].cleanup(tag);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The redis queue alone (no store, no model, a no-op handler): enqueue → handler one at a time, and jobs/s for 2,000 at once. */
async function measureRedisQueueAlone() {
  const { openRedisRunQueue } = await import('../dist/queue/redis-run-queue.js');
  const prefix = `qb-${process.pid}-alone`;
  const queue = await openRedisRunQueue({ url: REDIS_URL, prefix });
  const seen = new Map();
  const waiters = new Map();
  const worker = await queue.work(
    async (id) => {
      seen.set(id, performance.now());
      waiters.get(id)?.();
    },
    { concurrency: CONCURRENCY },
  );
  try {
    const latencies = [];
    for (let i = 0; i < 200; i++) {
      const id = `q${i}`;
      const handled = new Promise((r) => waiters.set(id, r));
      const t = performance.now();
      await queue.enqueue(id);
      await handled;
      latencies.push(seen.get(id) - t);
    }
    const jobs = 2000;
    const t0 = performance.now();
    const all = Promise.all(Array.from({ length: jobs }, (_, i) => new Promise((r) => waiters.set(`b${i}`, r))));
    await Promise.all(Array.from({ length: jobs }, (_, i) => queue.enqueue(`b${i}`)));
    await all;
    return { p50: pct(latencies, 50), p95: pct(latencies, 95), jobs, jobsPerSec: jobs / ((performance.now() - t0) / 1000) };
  } finally {
    await worker.stop();
    await queue.close();
    await dropRedisKeys(prefix);
  }
}

const names = arg(['backends', 'backend'], Object.keys(BACKENDS).join(',')).split(',');
for (const name of names) if (!BACKENDS[name]) throw new Error(`unknown backend ${name}; known: ${Object.keys(BACKENDS).join(', ')}`);
const alone = names.includes('redis') && !flag('no-queue-alone') ? await measureRedisQueueAlone() : undefined;
const rows = [];
for (const name of names) {
  for (const delay of DELAYS) {
    process.stderr.write(`${name}, model ${delay} ms…\n`);
    rows.push(await measure(name, delay));
  }
}
if (JSON_OUT) {
  console.log(JSON.stringify({ runs: RUNS, concurrency: CONCURRENCY, separate: SEPARATE, redisQueueAlone: alone, rows }, null, 2));
  process.exit(0);
}
const f = (n) => n.toFixed(1);
console.log(
  `\n${RUNS} runs, concurrency ${CONCURRENCY}, one process${SEPARATE ? ' (separate submitting runtime)' : ''}, node ${process.version}, ${os.cpus().length} CPUs\n`,
);
if (alone)
  console.log(
    `redis queue alone (BullMQ, no-op handler): enqueue → handler p50 ${f(alone.p50)} ms, p95 ${f(alone.p95)} ms; ${alone.jobs} at once: ${f(alone.jobsPerSec)} jobs/s\n`,
  );
console.log('| Queue | model | submit → start p50 | p95 | submit → model p50 | p95 | runs/s | not completed |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.modelDelayMs} ms | ${f(r.start.p50)} ms | ${f(r.start.p95)} ms | ${f(r.model.p50)} ms | ${f(r.model.p95)} ms | ${f(r.runsPerSec)} | ${r.failed} |`,
  );
process.exit(0);
