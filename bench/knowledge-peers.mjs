#!/usr/bin/env node
// Corvid's SQLite knowledge store beside LangChain.js (MemoryVectorStore + BM25Retriever + EnsembleRetriever) and
// LanceDB, on the corpus and queries of bench/knowledge.mjs (bench/lib/knowledge-corpus.mjs), in one run.
// `npm run build` at the root and `npm install` in bench/, then
// `node bench/knowledge-peers.mjs [--chunks=100000] [--queries=200] [--dims=384] [--budget=30]
//   [--systems=corvid,langchain,lancedb] [--ivf-pq|--no-ivf-pq] [--json] [--out=run.json]`.
// Each system runs in its own child process (bench/lib/knowledge-peers/child.mjs): its peak RSS is the kernel's
// high-water mark of that process. Each child generates the corpus itself (same seed, one document at a time); this
// process tells every system in turn to ingest the next 1,000 documents (the order rotates per batch), then to run
// the next 10 queries, again rotating, so a drift of the machine's speed lands on every system alike, and generates
// the corpus too, for the exact nearest neighbours. Timed: the calls into each system only.
// After a warm-up (the first 3 queries in every mode, not counted), a query mode that would take more than --budget
// seconds over all queries (judged by those 3) runs on every n-th query only; the report gives how many it ran. Recall@10 of each vector search is
// against an exact cosine search computed here; "overlap" is the share of a system's top 10 that Corvid's top 10 for
// the same mode also has.
import { fork } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createKnowledgeCorpus, PER_DOC } from './lib/knowledge-corpus.mjs';
import { formatPeerReport } from './lib/knowledge-peers/report.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, def) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const CHUNKS = Number(opt('chunks', 100_000));
const QUERIES = Number(opt('queries', 200));
const DIMS = Number(opt('dims', 384));
const BUDGET_MS = Number(opt('budget', 30)) * 1000;
const SYSTEMS = opt('systems', 'corvid,langchain,lancedb').split(',');
// Building LanceDB's IVF_PQ index (default parameters) took ~40 s at 10,000 chunks here and 6 minutes at 100,000
// (k-means of every PQ sub-vector): on by default up to 20,000 chunks only.
const IVF_PQ = args.includes('--no-ivf-pq') ? false : args.includes('--ivf-pq') || CHUNKS <= 20_000;
const json = args.includes('--json');
const OUT = opt('out', undefined);
const BATCH_DOCS = 1000;
const ROUND = 10;
const log = (line) => json || process.stderr.write(`${line}\n`);

const unknown = SYSTEMS.filter((name) => !['corvid', 'langchain', 'lancedb'].includes(name));
if (unknown.length) {
  console.error(`unknown system(s) ${unknown.join(', ')}: --systems takes corvid, langchain, lancedb`);
  process.exit(1);
}
if (!existsSync(join(ROOT, 'dist', 'knowledge', 'sqlite-knowledge-store.js'))) {
  console.error('dist/ is missing: run "npm run build" at the repository root first');
  process.exit(1);
}
for (const dep of ['@langchain/classic', '@langchain/community', '@lancedb/lancedb']) {
  if (!existsSync(join(BENCH, 'node_modules', dep))) {
    console.error(`bench/node_modules/${dep} is missing: run "npm ci --prefix bench" (or "npm install" in bench/) first`);
    process.exit(1);
  }
}

// LanceDB 0.31.0 logs a deprecation notice per query that selects columns without its score column.
const LANCE_ENV = { LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error' };

/** A system's child process, one request at a time. */
function spawnSystem(name) {
  const child = fork(join(BENCH, 'lib', 'knowledge-peers', 'child.mjs'), [], {
    serialization: 'advanced',
    env: { ...process.env, ...(name === 'lancedb' ? LANCE_ENV : {}) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const call = (op, body = {}) =>
    new Promise((resolve, reject) => {
      const onExit = ({ code, signal }) => reject(new Error(`${name} exited (${signal ?? code}) during "${op}"`));
      exited.then(onExit);
      child.once('message', (reply) => {
        if (reply.ok) resolve(reply);
        else reject(new Error(`${name} failed in "${op}":\n${reply.error}`));
      });
      child.send({ op, ...body });
    });
  return { name, child, call, exited };
}

/** Exact cosine top 10 for each query (unit vectors: cosine is the dot product), over the whole corpus. */
function exactTop10(vectors, count, queries) {
  return queries.map(({ vector }) => {
    const best = [];
    for (let g = 0; g < count; g++) {
      let dot = 0;
      const base = g * DIMS;
      for (let k = 0; k < DIMS; k++) dot += vectors[base + k] * vector[k];
      if (best.length < 10 || dot > best[best.length - 1].dot) {
        best.push({ g, dot });
        best.sort((a, b) => b.dot - a.dot);
        if (best.length > 10) best.pop();
      }
    }
    return best.map(({ g }) => `docs/${Math.floor(g / PER_DOC)}.md#${g % PER_DOC}`);
  });
}

const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);
const started = performance.now();
const load = { start: loadavg() };
const systems = SYSTEMS.map(spawnSystem);
try {
  const state = {};
  for (const s of systems) {
    const opened = await s.call('open', { name: s.name, dims: DIMS, ivfPq: IVF_PQ });
    state[s.name] = { ...opened, ingestMs: 0, results: {} };
  }

  const docs = Math.ceil(CHUNKS / PER_DOC);
  const total = docs * PER_DOC;
  for (let first = 0, b = 0; first < docs; first += BATCH_DOCS, b++) {
    const to = Math.min(docs, first + BATCH_DOCS);
    for (const s of rotate(systems, b)) state[s.name].ingestMs += (await s.call('ingest', { from: first, to })).ms;
    log(`  ingested ${to * PER_DOC} chunks`);
  }

  // The same corpus again here, for the exact nearest neighbours of each query.
  let t = performance.now();
  const corpus = createKnowledgeCorpus({ dims: DIMS });
  const vectors = new Float32Array(total * DIMS);
  for (let d = 0; d < docs; d++) corpus.makeDocument(d).chunks.forEach((c, i) => vectors.set(c.vector, (d * PER_DOC + i) * DIMS));
  const queries = corpus.makeQueries(QUERIES);
  if (new Set(queries.map((q) => q.text)).size !== queries.length)
    throw new Error('two queries have the same text: LangChain looks query vectors up by text');
  const truth = exactTop10(vectors, total, queries);
  log(`  exact top 10 of ${QUERIES} queries in ${Math.round(performance.now() - t)} ms (corpus generated again)`);

  for (const s of systems) {
    const finished = await s.call('finish', { count: QUERIES });
    if (finished.firstQuery !== queries[0]?.text) throw new Error(`${s.name} generated other queries than this process`);
    Object.assign(state[s.name], { finishMs: finished.ms, indexes: finished.indexes, ingestRssMb: finished.rssMb });
    log(`  ${s.name}: ready (${Math.round(finished.ms)} ms after ingest, peak RSS ${finished.rssMb} MB)`);
  }

  // The first 3 queries, run in every mode once to warm up and once more, set each mode's stride: the median of their
  // times, times the number of queries, against the budget.
  const PROBE = Math.min(3, QUERIES);
  const strides = {};
  const collect = (name, results) => {
    for (const [mode, list] of Object.entries(results)) (state[name].results[mode] ??= []).push(...list);
  };
  for (const s of systems) await s.call('query', { from: 0, to: PROBE, strides: {} }); // warm-up, not counted
  for (const s of systems) {
    const { results } = await s.call('query', { from: 0, to: PROBE, strides: {} });
    collect(s.name, results);
    strides[s.name] = Object.fromEntries(
      Object.entries(results).map(([mode, list]) => {
        const median = list.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(list.length / 2)];
        return [mode, Math.min(QUERIES, Math.max(1, Math.ceil((QUERIES * median) / BUDGET_MS)))];
      }),
    );
  }
  t = performance.now();
  for (let from = PROBE, r = 0; from < QUERIES; from += ROUND, r++) {
    for (const s of rotate(systems, r)) {
      const { results } = await s.call('query', { from, to: Math.min(QUERIES, from + ROUND), strides: strides[s.name] });
      collect(s.name, results);
    }
    if (r % 5 === 4) log(`  queries ${Math.min(QUERIES, from + ROUND)}/${QUERIES} (${Math.round((performance.now() - t) / 1000)} s)`);
  }
  for (const s of systems) state[s.name].peakRssMb = (await s.call('close')).rssMb;
  load.end = loadavg();

  const report = {
    chunks: total,
    dimensions: DIMS,
    queries: QUERIES,
    budgetSeconds: BUDGET_MS / 1000,
    node: process.version,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    loadAverage: load,
    seconds: Math.round((performance.now() - started) / 1000),
    systems: Object.fromEntries(SYSTEMS.map((name) => [name, state[name]])),
    truth,
  };
  const formatted = formatPeerReport(report);
  if (OUT) writeFileSync(OUT, `${JSON.stringify(formatted.summary, null, 2)}\n`);
  if (json) console.log(JSON.stringify(formatted.summary));
  else console.log(formatted.text);
} finally {
  for (const s of systems) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill();
}
