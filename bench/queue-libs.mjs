#!/usr/bin/env node
// The two Postgres job-queue libraries Corvid could build its `postgres` run queue on, measured on
// the same database, each in a fresh schema (dropped at the end). From the repo root:
//
//   node bench/queue-libs.mjs [--url=postgres://postgres@127.0.0.1:5432/test] [--jobs=2000] [--concurrency=8]
//
// Corvid depends on pg-boss only; for graphile-worker first `npm install --no-save graphile-worker@0.17`.
//
// Per library, one process:
//   latency    200 no-op jobs sent one by one to an idle pool of `concurrency` workers: send → handler start, p50/p95
//   throughput `jobs` no-op jobs inserted at once: insert → last one completed, jobs/s
//   recovery   a child process takes a job and is killed with SIGKILL: how long until another worker starts it
// pg-boss is measured twice: its own `work()` (no concurrency option in v10, so `concurrency` workers
// of batch 1, polling every 0.5 s — the minimum) and a `fetch()`/`complete()` loop that fetches
// up to its free slots and is woken by a send in the same process (the way Corvid's queue uses it).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const URL_ = args.url ?? process.env.CORVID_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const JOBS = Number(args.jobs ?? 2000);
const CONCURRENCY = Number(args.concurrency ?? 8);
const LATENCY_JOBS = 200;
const RECOVERY_CAP_MS = 20_000;
const SELF = fileURLToPath(import.meta.url);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function dropSchema(schema) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: URL_ });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

// ---------------------------------------------------------------- pg-boss
async function pgBoss(schema, { expireInSeconds = 60 } = {}) {
  const { default: PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: URL_, schema, max: CONCURRENCY + 4, schedule: false, maintenanceIntervalSeconds: 1 });
  boss.on('error', () => undefined);
  await boss.start();
  if (!(await boss.getQueue('bench'))) await boss.createQueue('bench', { retryLimit: 5, retryDelay: 0, expireInSeconds });
  return boss;
}

/** pg-boss's own workers: `CONCURRENCY` × work({ batchSize: 1 }). */
async function pgBossWork(boss, handler) {
  const ids = [];
  for (let i = 0; i < CONCURRENCY; i++)
    ids.push(await boss.work('bench', { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => handler(job.data)));
  return { stop: () => boss.offWork('bench') };
}

/** A fetch()/complete() loop over up to CONCURRENCY free slots, woken by `wake()`. */
function pgBossLoop(boss, handler) {
  let inFlight = 0;
  let stopped = false;
  let waiting;
  const wake = () => waiting?.();
  (async () => {
    while (!stopped) {
      const free = CONCURRENCY - inFlight;
      const jobs = free > 0 ? await boss.fetch('bench', { batchSize: free }) : [];
      for (const job of jobs) {
        inFlight++;
        Promise.resolve(handler(job.data))
          .then(() => boss.complete('bench', job.id))
          .catch((err) => boss.fail('bench', job.id, { message: String(err) }))
          .finally(() => (inFlight--, wake()));
      }
      if (jobs.length === 0 || inFlight >= CONCURRENCY)
        await new Promise((r) => {
          const t = setTimeout(r, 500);
          waiting = () => (clearTimeout(t), (waiting = undefined), r());
        });
    }
  })();
  return { wake, stop: () => ((stopped = true), wake()) };
}

// ---------------------------------------------------------------- graphile-worker
async function graphile(schema, task) {
  const { run, makeWorkerUtils } = await import('graphile-worker');
  const utils = await makeWorkerUtils({ connectionString: URL_, schema });
  await utils.migrate();
  const runner = task
    ? await run({
        connectionString: URL_,
        schema,
        concurrency: CONCURRENCY,
        noHandleSignals: true,
        pollInterval: 2000,
        logger: new (await import('graphile-worker')).Logger(() => () => undefined),
        taskList: { bench: async (payload) => task(payload) },
      })
    : undefined;
  return { utils, runner };
}

// ---------------------------------------------------------------- measuring
async function measure(name, setup, { jobs = JOBS, latencyJobs = LATENCY_JOBS } = {}) {
  process.stderr.write(`${name}…\n`);
  const lat = [];
  let done = 0;
  let allDone;
  const handler = (data) => {
    if (data.t !== undefined) lat.push(performance.now() - data.t);
    if (++done === jobs && allDone) allDone();
  };
  const q = await setup(handler);
  await sleep(300);
  for (let i = 0; i < latencyJobs; i++) {
    const before = done;
    await q.send({ t: performance.now() });
    while (done === before) await sleep(1);
    await sleep(5);
  }
  done = 0;
  const finished = new Promise((r) => (allDone = r));
  const t0 = performance.now();
  await q.sendMany(Array.from({ length: jobs }, (_, i) => ({ i })));
  await finished;
  const seconds = (performance.now() - t0) / 1000;
  await q.stop();
  return { name, jobs, p50: pct(lat, 50), p95: pct(lat, 95), jobsPerSec: jobs / seconds };
}

async function recovery(lib) {
  process.stderr.write(`recovery ${lib}…\n`);
  const schema = `qbench_rec_${lib.replace(/\W/g, '')}_${process.pid}`;
  await dropSchema(schema);
  const child = spawn(process.execPath, [SELF, `--child=${lib}`, `--schema=${schema}`, `--url=${URL_}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  while (!out.includes('took')) {
    if (child.exitCode !== null) throw new Error(`${lib} child exited: ${out}`);
    await sleep(20);
  }
  child.kill('SIGKILL');
  const killedAt = performance.now();
  await new Promise((r) => child.on('close', r));
  let startedAt;
  let stop;
  if (lib === 'pg-boss') {
    const boss = await pgBoss(schema, { expireInSeconds: 5 });
    const w = pgBossLoop(boss, () => void (startedAt ??= performance.now()));
    stop = async () => (w.stop(), await boss.stop({ graceful: false }));
  } else {
    const { utils, runner } = await graphile(schema, () => void (startedAt ??= performance.now()));
    stop = async () => (await runner.stop(), await utils.release());
  }
  while (startedAt === undefined && performance.now() - killedAt < RECOVERY_CAP_MS) await sleep(20);
  await stop();
  await dropSchema(schema);
  return startedAt === undefined ? `not within ${RECOVERY_CAP_MS / 1000} s` : `${((startedAt - killedAt) / 1000).toFixed(1)} s`;
}

/** The killed child: sends one job, takes it and hangs. */
async function child(lib, schema) {
  const hang = () => (process.stdout.write('took\n'), new Promise(() => undefined));
  if (lib === 'pg-boss') {
    const boss = await pgBoss(schema, { expireInSeconds: 5 });
    await boss.send('bench', {});
    pgBossLoop(boss, hang);
  } else {
    const { utils } = await graphile(schema, hang);
    await utils.addJob('bench', {});
  }
}

if (args.child) {
  await child(args.child, args.schema);
} else {
  const rows = [];
  const tag = `${process.pid}`;
  {
    const schema = `qbench_pgboss_work_${tag}`;
    await dropSchema(schema);
    const boss = await pgBoss(schema);
    rows.push(
      await measure(
        'pg-boss 10 work() ×8',
        async (h) => {
          const w = await pgBossWork(boss, h);
          return {
            send: (d) => boss.send('bench', d),
            sendMany: (ds) => boss.insert(ds.map((data) => ({ name: 'bench', data }))),
            stop: w.stop,
          };
        },
        { jobs: Math.min(JOBS, 300), latencyJobs: 40 },
      ),
    );
    await boss.stop({ graceful: false });
    await dropSchema(schema);
  }
  {
    const schema = `qbench_pgboss_loop_${tag}`;
    await dropSchema(schema);
    const boss = await pgBoss(schema);
    rows.push(
      await measure('pg-boss 10 fetch() loop', async (h) => {
        const w = pgBossLoop(boss, h);
        return {
          send: async (d) => (await boss.send('bench', d), w.wake()),
          sendMany: async (ds) => (await boss.insert(ds.map((data) => ({ name: 'bench', data }))), w.wake()),
          stop: w.stop,
        };
      }),
    );
    await boss.stop({ graceful: false });
    await dropSchema(schema);
  }
  {
    const schema = `qbench_gw_${tag}`;
    await dropSchema(schema);
    let runner;
    let utils;
    rows.push(
      await measure('graphile-worker 0.17 run()', async (h) => {
        ({ utils, runner } = await graphile(schema, h));
        return {
          send: (d) => utils.addJob('bench', d),
          sendMany: (ds) => utils.addJobs(ds.map((payload) => ({ identifier: 'bench', payload }))),
          stop: () => runner.stop(),
        };
      }),
    );
    await utils.release();
    await dropSchema(schema);
  }
  const rec = { 'pg-boss': await recovery('pg-boss'), 'graphile-worker': await recovery('graphile-worker') };
  console.log(`\nPostgres ${URL_.replace(/:[^:@/]*@/, ':***@')}, ${JOBS} jobs, concurrency ${CONCURRENCY}, node ${process.version}\n`);
  console.log('| Library | send → start p50 | p95 | jobs/s (no-op) | jobs |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(`| ${r.name} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${Math.round(r.jobsPerSec)} | ${r.jobs} |`);
  console.log(`\nA worker killed with SIGKILL while running a job; another worker starts it after:`);
  console.log(`- pg-boss (queue expireInSeconds 5, maintenance every 1 s): ${rec['pg-boss']}`);
  console.log(`- graphile-worker (locks of a crashed worker are reset after a fixed 4 hours): ${rec['graphile-worker']}`);
  process.exit(0);
}
