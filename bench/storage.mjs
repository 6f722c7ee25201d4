#!/usr/bin/env node
// Storage benchmarks: appends per second and the load time of a 1,000-message session, per
// backend. Standalone: `npm run build`, then `node bench/storage.mjs [--json] [--only=sqlite,postgres] [--repeat=3]`.
// Each backend is measured `--repeat` times (default 3) and the best figure of each column is kept,
// which filters out the noise of other work on the machine.
// Postgres and MySQL run when CORVID_TEST_POSTGRES_URL / CORVID_TEST_MYSQL_URL are set (each run
// uses a random schema / database and drops it). Targets: SQLite ≥ 20,000 appends/s batched and
// < 5 ms to load 1,000 messages; Postgres ≥ 3,000 appends/s from 8 concurrent writers.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'storage', 'index.js');
if (!existsSync(ENTRY)) {
  console.error(`${ENTRY} is missing: run "npm run build" first`);
  process.exit(1);
}
const { openStore } = await import(pathToFileURL(ENTRY).href);

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const repeat = Number(args.find((a) => a.startsWith('--repeat='))?.slice(9) ?? 3);
const name = () => `corvid_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** A realistic turn: user text, assistant tool call, tool result, assistant answer. */
function turn(i) {
  const text = `Message ${i}: please look up the weather in Lisbon and Porto for the weekend, then suggest what to pack for a short city trip.`;
  return [
    { agent: 'assistant', message: { role: 'user', content: [{ type: 'text', text }] } },
    {
      agent: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'weather', input: { cities: ['Lisbon', 'Porto'], days: 2 } }],
      },
    },
    {
      agent: 'assistant',
      message: {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call_${i}`,
            toolName: 'weather',
            output: { type: 'json', value: { Lisbon: { high: 24, low: 16 }, Porto: { high: 21, low: 14 } } },
          },
        ],
      },
    },
    {
      agent: 'assistant',
      usage: { inputTokens: 812, outputTokens: 96, reasoningTokens: 0, cachedInputTokens: 512, totalTokens: 908 },
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sunny and mild in both: pack light layers, a light jacket for the evenings, and comfortable shoes.' },
        ],
      },
    },
  ][i % 4];
}
const entries = (n, from = 0) => Array.from({ length: n }, (_, i) => turn(from + i));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `measureOnce` `repeat` times and keeps the best of each figure (most appends/s, least ms). */
async function measure(label, options, sizes) {
  const runs = [];
  for (let i = 0; i < repeat; i++) runs.push(await measureOnce(label, options, sizes));
  const best = { backend: label };
  for (const key of Object.keys(runs[0])) {
    if (key === 'backend') continue;
    const values = runs.map((r) => r[key]);
    best[key] = key.endsWith('Ms') ? Math.min(...values) : Math.max(...values);
  }
  return best;
}

async function measureOnce(label, options, { single = 2000, batched = 20_000, batch = 100, writers = 8, perWriter = 400 } = {}) {
  const out = { backend: label };
  const store = await openStore(options);
  try {
    // 1. One append per call, sequential.
    let s = await store.sessions.create({ agent: 'bench' });
    let t = performance.now();
    for (let i = 0; i < single; i++) await store.sessions.append(s.id, turn(i));
    out.singleAppendsPerSec = Math.round(single / ((performance.now() - t) / 1000));

    // 2. Batched: appendMany of `batch` entries.
    s = await store.sessions.create({ agent: 'bench' });
    t = performance.now();
    for (let i = 0; i < batched; i += batch) await store.sessions.appendMany(s.id, entries(batch, i));
    out.batchedAppendsPerSec = Math.round(batched / ((performance.now() - t) / 1000));

    // 3. Load a 1,000-message session (median of 30 loads after 5 warm-ups).
    s = await store.sessions.create({ agent: 'bench' });
    await store.sessions.appendMany(s.id, entries(1000));
    for (let i = 0; i < 5; i++) await store.sessions.messages(s.id);
    const times = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      const messages = await store.sessions.messages(s.id);
      times.push(performance.now() - t0);
      if (messages.length !== 1000) throw new Error(`loaded ${messages.length} messages`);
    }
    out.load1000Ms = Number(median(times).toFixed(2));
  } finally {
    await store.close();
  }

  // 4. Eight concurrent writers, single appends: through one store (one process, a pool of 8: how a
  //    server runs many sessions), to their own sessions and to one shared session; then through
  //    8 separate stores of one connection each (like 8 processes).
  if (writers > 0) {
    const timed = async (fn) => {
      const t = performance.now();
      await fn();
      return Math.round((writers * perWriter) / ((performance.now() - t) / 1000));
    };
    const run = (stores, ids) =>
      Promise.all(
        ids.map(async (id, w) => {
          for (let i = 0; i < perWriter; i++) await stores[w % stores.length].sessions.append(id, turn(w + i));
        }),
      );
    const one = await openStore({ ...options, poolSize: writers });
    try {
      const own = await Promise.all(Array.from({ length: writers }, () => one.sessions.create({ agent: 'bench' })));
      out.oneStoreOwnSessions = await timed(() =>
        run(
          [one],
          own.map((s) => s.id),
        ),
      );
      const shared = await one.sessions.create({ agent: 'bench' });
      out.oneStoreSharedSession = await timed(() =>
        run(
          [one],
          own.map(() => shared.id),
        ),
      );
      if ((await one.sessions.get(shared.id)).lastSeq !== writers * perWriter) throw new Error('lost appends');
    } finally {
      await one.close();
    }
    const stores = await Promise.all(Array.from({ length: writers }, () => openStore({ ...options, poolSize: 1 })));
    try {
      const own = await Promise.all(stores.map((st) => st.sessions.create({ agent: 'bench' })));
      out.separateStoresOwnSessions = await timed(() =>
        run(
          stores,
          own.map((s) => s.id),
        ),
      );
    } finally {
      await Promise.all(stores.map((st) => st.close()));
    }
  }
  return out;
}

async function withPostgres(url, fn) {
  const pg = (await import('pg')).default;
  const schema = name();
  try {
    return await fn({ driver: 'postgres', url, schema });
  } finally {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  }
}

async function withMysql(url, fn) {
  const mysql = (await import('mysql2/promise')).default;
  const database = name();
  const admin = await mysql.createConnection({ uri: url });
  await admin.query(`CREATE DATABASE ${database} CHARACTER SET utf8mb4`);
  try {
    const u = new URL(url);
    u.pathname = `/${database}`;
    return await fn({ driver: 'mysql', url: u.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.end();
  }
}

const results = [];
const skipped = [];
const want = (b) => !only || only.includes(b);
if (want('memory')) results.push(await measure('memory', { driver: 'memory' }, { writers: 0 }));
if (want('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-bench-'));
  try {
    results.push(await measure('sqlite', { driver: 'sqlite', path: join(dir, 'bench.db') }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (want('postgres')) {
  const url = process.env.CORVID_TEST_POSTGRES_URL;
  if (url) results.push(await withPostgres(url, (o) => measure('postgres', o, { single: 1000, batched: 10_000 })));
  else skipped.push('postgres (CORVID_TEST_POSTGRES_URL is not set)');
}
if (want('mysql')) {
  const url = process.env.CORVID_TEST_MYSQL_URL;
  if (url) results.push(await withMysql(url, (o) => measure('mysql', o, { single: 1000, batched: 10_000 })));
  else skipped.push('mysql (CORVID_TEST_MYSQL_URL is not set)');
}

if (json) console.log(JSON.stringify({ node: process.version, results, skipped }, null, 2));
else {
  const cols = [
    'backend',
    'singleAppendsPerSec',
    'batchedAppendsPerSec',
    'load1000Ms',
    'oneStoreOwnSessions',
    'oneStoreSharedSession',
    'separateStoresOwnSessions',
  ];
  const heads = [
    'backend',
    'appends/s, one by one',
    'appends/s, batches of 100',
    'load 1,000 messages (ms)',
    '8 writers, 1 store, 8 sessions (appends/s)',
    '8 writers, 1 store, 1 session (appends/s)',
    '8 writers, 8 stores, 8 sessions (appends/s)',
  ];
  console.log(`| ${heads.join(' | ')} |\n|${heads.map(() => '---').join('|')}|`);
  for (const r of results)
    console.log(
      `| ${cols.map((c) => (r[c] === undefined ? '–' : typeof r[c] === 'number' ? r[c].toLocaleString('en-US') : r[c])).join(' | ')} |`,
    );
  for (const s of skipped) console.log(`skipped: ${s}`);
  console.log(
    `\nBest of ${repeat} runs. Node ${process.version}; targets: SQLite ≥ 20,000 appends/s batched, < 5 ms to load 1,000 messages; Postgres ≥ 3,000 appends/s from 8 writers.`,
  );
}
