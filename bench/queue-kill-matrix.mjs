#!/usr/bin/env node
// Kill matrix of background runs: for each point, a run is submitted to `corvid serve --no-worker`
// and the `corvid worker` executing it is killed with SIGKILL at one of four moments, in turn:
//   model   — during the first model call (before the tool)
//   tool    — while the tool runs (it has started, not finished)
//   between — after the tool, while the model is asked for the answer
//   stream  — while the answer streams (3 of its 10 chunks sent)
// Another worker must resume the run: it completes, and its tool has finished exactly once (the
// tool appends to a ledger when it finishes). A new worker replaces the killed one.
//
//   npm run build && node bench/queue-kill-matrix.mjs [--backend embedded|postgres|redis] [--points 100] [--workers 3]
//
// The model is a local fake OpenAI-compatible server (no LLM API). postgres/redis use
// CORVID_BENCH_POSTGRES_URL / CORVID_BENCH_REDIS_URL (default the local services).
import {
  arg,
  counts,
  getRun,
  makeProject,
  requireBuild,
  startModel,
  startServer,
  startWorker,
  submit,
  until,
} from './lib/queue-cluster.mjs';

requireBuild();
const backend = arg('backend', 'embedded');
const POINTS = Number(arg('points', 100));
const WORKERS = Number(arg('workers', 3));
const PHASES = [
  { name: 'model', marker: 'model-request' },
  { name: 'tool', marker: 'tool-start' },
  { name: 'between', marker: 'answer-request' },
  { name: 'stream', marker: 'answer-streaming' },
];

let markers = '';
const model = await startModel({ markers: () => markers, firstMs: 400, secondMs: 400, chunkMs: 60 });
const project = makeProject({ backend, modelUrl: model.url, toolMs: 400 });
markers = project.markers;
const { openStore } = await import(new URL('../dist/storage/index.js', import.meta.url).href);

const server = await startServer(project.dir);
let workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorker(project.dir)));
const store = await openStore(
  backend === 'postgres'
    ? { url: process.env.CORVID_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' }
    : { path: `${project.dir}/runs.db` },
);
console.log(`kill matrix: ${POINTS} points, ${backend} queue, ${WORKERS} workers`);

const rows = [];
const t0 = Date.now();
try {
  for (let i = 0; i < POINTS; i++) {
    const phase = PHASES[i % PHASES.length];
    const label = `point${i}`;
    const started = Date.now();
    const runId = await submit(server.url, label);
    const reached = await until(() => counts(project.markers).has(`${label} ${phase.marker}`), 30_000);
    const record = await store.backgroundRuns.get(runId);
    const pid = Number(record?.worker?.split('/')[1]);
    const victim = workers.find((w) => w.pid === pid);
    if (reached && victim) {
      victim.child.kill('SIGKILL');
      workers = workers.filter((w) => w !== victim);
      workers.push(await startWorker(project.dir));
    }
    const run = await getRun(server.url, runId, 120);
    const executed = counts(project.ledger).get(label) ?? 0;
    const ok = reached && victim !== undefined && run.status === 'completed' && executed === 1;
    rows.push({
      i,
      phase: phase.name,
      killed: Boolean(reached && victim),
      status: run.status,
      attempts: run.attempts,
      executed,
      ms: Date.now() - started,
      ok,
    });
    const mark = ok ? 'ok' : 'FAIL';
    console.log(
      `${String(i + 1).padStart(4)}/${POINTS}  ${phase.name.padEnd(8)} ${mark.padEnd(5)} status=${run.status} attempts=${run.attempts} tool=${executed}x ${((Date.now() - started) / 1000).toFixed(1)}s`,
    );
  }
} finally {
  for (const w of workers) w.child.kill('SIGTERM');
  server.child.kill('SIGTERM');
  await store.close().catch(() => undefined);
  await model.close();
}

const resumed = rows.filter((r) => r.ok).length;
console.log('\nphase     points  resumed  tool once  mean s');
for (const p of PHASES) {
  const rs = rows.filter((r) => r.phase === p.name);
  if (rs.length === 0) continue;
  const mean = rs.reduce((a, r) => a + r.ms, 0) / rs.length / 1000;
  console.log(
    `${p.name.padEnd(9)} ${String(rs.length).padStart(6)}  ${String(rs.filter((r) => r.status === 'completed').length).padStart(7)}  ${String(rs.filter((r) => r.executed === 1).length).padStart(9)}  ${mean.toFixed(1).padStart(6)}`,
  );
}
console.log(`\n${resumed}/${rows.length} resumed (completed, tool executed once) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
if (resumed !== rows.length) {
  console.log(`kept for inspection: ${project.dir}`);
  process.exitCode = 1;
} else project.cleanup();
