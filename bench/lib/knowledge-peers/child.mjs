// One system of bench/knowledge-peers.mjs in its own process (so its RSS and module cache are its own), driven by the
// parent over IPC: `open`, `ingest` (a range of documents), `finish` (indexes, queries), `query` (a range of the
// queries, every mode), `close`. The process generates the corpus itself, one document at a time (as bench/knowledge.mjs
// does), and hands the system `batchDocs` documents per ingest call (after its untimed `prepare`, if any: input in
// the system's own shape); only the calls into the system are timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createKnowledgeCorpus } from '../knowledge-corpus.mjs';

const SYSTEMS = {
  corvid: () => import('./corvid.mjs'),
  langchain: () => import('./langchain.mjs'),
  lancedb: () => import('./lancedb.mjs'),
};

/** Peak resident set size of this process so far (the kernel's high-water mark), in MB. */
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

let system;
let dir;
let corpus;
let nextDoc = 0;
let queries = [];

const handlers = {
  async open({ name, dims, ivfPq }) {
    dir = mkdtempSync(join(tmpdir(), `corvid-bench-kbp-${name}-`));
    corpus = createKnowledgeCorpus({ dims });
    system = await (await SYSTEMS[name]()).open({ dir, dims, ivfPq });
    return { label: system.label, versions: system.versions, modes: Object.keys(system.modes), rssMb: peakRssMb() };
  },
  /** Generates documents [from, to) in order and ingests them, `system.batchDocs` per call. */
  async ingest({ from, to }) {
    if (from !== nextDoc) throw new Error(`documents must come in order: expected ${nextDoc}, got ${from}`);
    let ms = 0;
    let batch = [];
    for (; nextDoc < to; nextDoc++) {
      batch.push(corpus.makeDocument(nextDoc));
      if (batch.length < system.batchDocs && nextDoc < to - 1) continue;
      const prepared = system.prepare ? system.prepare(batch) : batch;
      const t = performance.now();
      await system.ingest(prepared);
      ms += performance.now() - t;
      batch = [];
    }
    return { ms };
  },
  /** Generates the queries (after all documents, as the PRNG order requires) and lets the system build its indexes. */
  async finish({ count }) {
    queries = corpus.makeQueries(count);
    const t = performance.now();
    const indexes = (await system.finish(queries)) ?? {};
    return { ms: performance.now() - t, indexes, rssMb: peakRssMb(), firstQuery: queries[0]?.text };
  },
  /** Runs queries [from, to) in each mode whose stride divides the query's number; returns times and top-10 ids. */
  async query({ from, to, strides }) {
    const out = {};
    for (let i = from; i < to; i++) {
      for (const [mode, run] of Object.entries(system.modes)) {
        if (i % (strides[mode] ?? 1) !== 0) continue;
        const t = performance.now();
        const ids = await run(queries[i]);
        const ms = performance.now() - t;
        (out[mode] ??= []).push({ i, ms, ids });
      }
    }
    return { results: out };
  },
  async close() {
    await system.close();
    rmSync(dir, { recursive: true, force: true });
    return { rssMb: peakRssMb() };
  },
};

process.on('message', async ({ op, ...args }) => {
  try {
    process.send({ ok: true, ...(await handlers[op](args)) });
  } catch (error) {
    process.send({ ok: false, error: error?.stack ?? String(error) });
  }
  if (op === 'close') process.disconnect();
});
// The parent is gone (killed, or it failed): nothing more will come.
process.on('disconnect', () => process.exit());
