#!/usr/bin/env node
// Background runs through each queue backend, in one process (`runtime.runs`: submit → a worker
// of concurrency 8 in the same process → done), against a fake Chat Completions server on
// 127.0.0.1 answering at once or after 200 ms. From the repo root, after `npm run build`:
//
//   node bench/queue.mjs [--backends=embedded,postgres] [--runs=200] [--url=postgres://postgres@127.0.0.1:5432/test]
//
//   submit → model   one run submitted at a time to idle workers (40 runs): from `submit()` to the
//                    run's model request arriving at the fake server, p50 / p95
//   runs/s           `runs` runs submitted at once: first submit → last run completed
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

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const PG_URL = args.url ?? process.env.CORVID_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(args.runs ?? 200);
const LATENCY_RUNS = 40;
const CONCURRENCY = 8;

async function dropPgSchemas(...schemas) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await c.end();
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

async function measure(name, modelDelayMs) {
  const tag = `${process.pid}_${name}_${modelDelayMs}`;
  const dir = mkdtempSync(join(os.tmpdir(), 'corvid-queue-bench-'));
  const submitted = new Map();
  const arrived = new Map();
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
  const runtime = await loadRuntime({ cwd: dir, dotenv: false });
  const worker = await runtime.runs.work({ concurrency: CONCURRENCY });
  try {
    // Warm-up (the queue opens, the store's statements are prepared).
    await runtime.runs.wait((await runtime.runs.submit('helper', 'warm-up')).runId, { timeoutMs: 30_000, pollMs: 5 });
    const lat = [];
    for (let i = 0; i < LATENCY_RUNS; i++) {
      const input = `latency ${i}`;
      const t = performance.now();
      const run = await runtime.runs.submit('helper', input);
      await runtime.runs.wait(run.runId, { timeoutMs: 30_000, pollMs: 5 });
      lat.push(arrived.get(input) - t);
    }
    const t0 = performance.now();
    const ids = [];
    for (let i = 0; i < RUNS; i += 20)
      ids.push(
        ...(await Promise.all(Array.from({ length: Math.min(20, RUNS - i) }, (_, j) => runtime.runs.submit('helper', `run ${i + j}`)))).map(
          (r) => r.runId,
        ),
      );
    const done = await Promise.all(ids.map((id) => runtime.runs.wait(id, { timeoutMs: 120_000, pollMs: 20 })));
    const seconds = (performance.now() - t0) / 1000;
    const failed = done.filter((r) => r.status !== 'completed').length;
    submitted.clear();
    return { name, modelDelayMs, p50: pct(lat, 50), p95: pct(lat, 95), runsPerSec: RUNS / seconds, failed };
  } finally {
    await worker.stop();
    await runtime.close();
    await model.close();
    await BACKENDS[name].cleanup(tag);
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = (args.backends ?? Object.keys(BACKENDS).join(',')).split(',');
const rows = [];
for (const name of names) {
  if (!BACKENDS[name]) throw new Error(`unknown backend ${name}; known: ${Object.keys(BACKENDS).join(', ')}`);
  for (const delay of [0, 200]) {
    process.stderr.write(`${name}, model ${delay} ms…\n`);
    rows.push(await measure(name, delay));
  }
}
console.log(`\n${RUNS} runs, concurrency ${CONCURRENCY}, one process, node ${process.version}, ${os.cpus().length} CPUs\n`);
console.log('| Queue | model | submit → model p50 | p95 | runs/s | not completed |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.modelDelayMs} ms | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.runsPerSec.toFixed(1)} | ${r.failed} |`,
  );
process.exit(0);
