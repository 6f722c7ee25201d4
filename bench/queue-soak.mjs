#!/usr/bin/env node
// Soak of background runs: `corvid serve --no-worker` and N `corvid worker` processes on one
// queue; runs are submitted continuously (keeping `--inflight` unfinished) for `--minutes`; each
// worker's resident memory (RSS) is sampled every 10 s. At the end every submitted run must have
// completed with its tool executed once (0 lost), and each worker's RSS floor should be flat: its
// lowest sample in the last third of the run (after the first minute) at most 1 MB/min above its
// lowest in the first third. The least-squares slope of all samples is shown too; it follows the
// heap's rise and fall between major collections.
//
//   npm run build && node bench/queue-soak.mjs [--backend embedded|postgres|redis] [--minutes 10] [--workers 3] [--inflight 12]
//
// The model is a local fake OpenAI-compatible server (no LLM API): a tool call, then a streamed answer.
import {
  arg,
  counts,
  getRun,
  makeProject,
  requireBuild,
  rssMb,
  sleep,
  slope,
  startModel,
  startServer,
  startWorker,
  submit,
} from './lib/queue-cluster.mjs';

requireBuild();
const backend = arg('backend', 'embedded');
const MINUTES = Number(arg('minutes', 10));
const WORKERS = Number(arg('workers', 3));
const INFLIGHT = Number(arg('inflight', 12));
const SAMPLE_MS = 10_000;
/** RSS growth (MB per minute) above which a worker is reported as growing. */
const FLAT_MB_PER_MIN = 1;

let markers = '';
const model = await startModel({ markers: () => markers, chunkMs: 5 });
const project = makeProject({ backend, modelUrl: model.url, toolMs: 20 });
markers = project.markers;
const server = await startServer(project.dir);
const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorker(project.dir)));
const exits = [];
let stopping = false;
workers.forEach((w, i) =>
  w.child.once('exit', (code, signal) => {
    if (!stopping) exits.push(`worker ${i + 1} exited (${signal ?? code}):\n${w.stderr().split('\n').slice(-15).join('\n')}`);
  }),
);
console.log(`soak: ${MINUTES} min, ${backend} queue, ${WORKERS} workers, ${INFLIGHT} runs in flight`);

const t0 = Date.now();
const end = t0 + MINUTES * 60_000;
const submitted = [];
const samples = []; // { t (min), rss: [MB per worker] }
let completed = 0;
let failedChecks = 0;

const sample = () => samples.push({ t: (Date.now() - t0) / 60_000, rss: workers.map((w) => rssMb(w.pid)) });
sample();
const sampler = setInterval(() => {
  sample();
  const s = samples.at(-1);
  console.log(
    `${s.t.toFixed(1).padStart(5)} min  runs ${String(submitted.length).padStart(6)} submitted, ${String(completed).padStart(6)} completed  RSS ${s.rss.map((r) => r.toFixed(0)).join(' / ')} MB`,
  );
}, SAMPLE_MS);

/** One submitter: submits a run, waits for it, repeats until the end. */
async function lane(n) {
  for (let k = 0; Date.now() < end; k++) {
    const label = `lane${n}x${k}`;
    let runId;
    try {
      runId = await submit(server.url, label);
    } catch (err) {
      console.error(`submit failed: ${err.message}`);
      await sleep(500);
      continue;
    }
    submitted.push({ runId, label });
    const run = await getRun(server.url, runId, 120);
    if (run.status === 'completed') completed++;
    else failedChecks++;
  }
}

try {
  await Promise.all(Array.from({ length: INFLIGHT }, (_, n) => lane(n)));
} finally {
  clearInterval(sampler);
}
sample();

// Every submitted run: completed, its tool finished exactly once.
const ledger = counts(project.ledger);
let lost = 0;
for (const { runId, label } of submitted) {
  const run = await getRun(server.url, runId, 60);
  if (run.status !== 'completed' || ledger.get(label) !== 1) lost++;
}
stopping = true;
for (const e of exits) console.log(e);
for (const w of workers) w.child.kill('SIGTERM');
server.child.kill('SIGTERM');
await model.close();

const seconds = (Date.now() - t0) / 1000;
const warm = samples.filter((s) => s.t >= Math.min(1, samples.at(-1).t / 2));
const used = warm.length >= 3 ? warm : samples.slice(1);
/**
 * How fast the floor of a worker's RSS rose, in MB per minute: its lowest sample in the last third of the
 * judged samples against the first third. V8 grows the heap under load and gives it back after a major
 * collection, so samples rise and fall by tens of MB for minutes at a time; a leak raises the floor.
 */
function floorGrowth(i) {
  const third = Math.floor(used.length / 3);
  if (third < 2) return { first: NaN, last: NaN, perMin: NaN };
  const head = used.slice(0, third);
  const tail = used.slice(-third);
  const first = Math.min(...head.map((s) => s.rss[i]));
  const last = Math.min(...tail.map((s) => s.rss[i]));
  const mid = (xs) => (xs[0].t + xs.at(-1).t) / 2;
  return { first, last, perMin: (last - first) / (mid(tail) - mid(head)) };
}
console.log('\nworker  RSS start  RSS end  RSS max  slope MB/min  floor first / last third  floor MB/min');
const slopes = workers.map((_, i) => {
  const sl = slope(
    used.map((s) => s.t),
    used.map((s) => s.rss[i]),
  );
  const floor = floorGrowth(i);
  const all = samples.map((s) => s.rss[i]);
  const cells = [all[0], all.at(-1), Math.max(...all)].map((v, j) => v.toFixed(0).padStart([9, 7, 7][j]));
  console.log(
    `${String(i + 1).padStart(6)}  ${cells.join('  ')}  ${sl.toFixed(2).padStart(12)}  ${`${floor.first.toFixed(0)} / ${floor.last.toFixed(0)}`.padStart(24)}  ${floor.perMin.toFixed(2).padStart(12)}`,
  );
  return floor.perMin;
});
// Under 5 minutes the warm-up (JIT, caches, SQLite pages) dominates the slope: it is shown, not judged.
const judged = MINUTES >= 5;
const flat = !judged || slopes.every((s) => s < FLAT_MB_PER_MIN);
const rss = judged
  ? `RSS ${flat ? 'flat' : 'GROWING'} (every floor rising < ${FLAT_MB_PER_MIN} MB/min: ${flat ? 'yes' : 'no'})`
  : 'RSS slope not judged (under 5 minutes the warm-up dominates)';
console.log(
  `\n${submitted.length} runs in ${seconds.toFixed(0)} s (${(submitted.length / seconds).toFixed(1)} runs/s), ${lost} lost, ${rss}`,
);
const pass = lost === 0 && failedChecks === 0 && flat && exits.length === 0;
console.log(`${exits.length} worker(s) died; verdict: ${pass ? 'PASS' : 'FAIL'}`);
if (!pass) {
  console.log(`kept for inspection: ${project.dir}`);
  process.exitCode = 1;
} else project.cleanup();
