#!/usr/bin/env node
// Knowledge store benchmark (SQLite: FTS5 BM25 + sqlite-vec). Standalone: `npm run build`, then
// `node bench/knowledge.mjs [--chunks=100000] [--dims=384] [--queries=200] [--json]`.
// A deterministic synthetic corpus (seeded PRNG): documents of 10 chunks of ~80 words drawn from a
// Zipf-distributed 20,000-word vocabulary, and unit vectors scattered around 256 random centroids.
// Measures the ingest rate (chunks/s through putDocument, one transaction per document; generating
// the text and vectors is excluded, no embedder runs), peak RSS while ingesting, and the p50/p99
// latency of a keyword search (3 words), a vector search (a noisy centroid) and a hybrid query
// (both with topK 50, fused by reciprocal rank fusion, k = 60, top 10), with the store's default
// options (`vectorSearch: 'auto'`: the sign-bit prefilter from 20,000 vectors; keyword queries
// leaving out words found in more than half the chunks), then with an exact reference store on the
// same file (`vectorSearch: 'exact'`, every word); vector recall is measured against the reference.
// Targets: ingest ≥ 2,000 chunks/s, RSS < 400 MB, hybrid p50 ≤ 30 ms and p99 ≤ 100 ms.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { createKnowledgeCorpus, PER_DOC } from './lib/knowledge-corpus.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'knowledge', 'sqlite-knowledge-store.js');
if (!existsSync(ENTRY)) {
  console.error(`${ENTRY} is missing: run "npm run build" first`);
  process.exit(1);
}
const { openSqliteKnowledgeStore } = await import(pathToFileURL(ENTRY).href);
const { reciprocalRankFusion } = await import(pathToFileURL(join(ROOT, 'dist', 'knowledge', 'rrf.js')).href);

const args = process.argv.slice(2);
const arg = (name, def) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const CHUNKS = arg('chunks', 100_000);
const DIMS = arg('dims', 384);
const QUERIES = arg('queries', 200);
const json = args.includes('--json');
const corpus = createKnowledgeCorpus({ dims: DIMS });
const { makeDocument } = corpus;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => Math.round(x * 100) / 100;

const dir = mkdtempSync(join(tmpdir(), 'corvid-bench-kb-'));
try {
  const store = await openSqliteKnowledgeStore({ path: join(dir, 'corvid.db') });
  const index = await store.openIndex('bench', { embedder: { model: 'synthetic', dimensions: DIMS } });
  let ingestMs = 0;
  let peakRss = process.memoryUsage().rss;
  const docs = Math.ceil(CHUNKS / PER_DOC);
  for (let d = 0; d < docs; d++) {
    const { document, chunks } = makeDocument(d);
    const t = performance.now();
    await index.putDocument(document, chunks);
    ingestMs += performance.now() - t;
    if (d % 100 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (!json && d % 1000 === 999)
      process.stderr.write(`  ${(d + 1) * PER_DOC} chunks, ${Math.round(((d + 1) * PER_DOC) / (ingestMs / 1000))} chunks/s\n`);
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const stats = await index.stats();

  const queries = corpus.makeQueries(QUERIES);
  // The store as ingested (default options: `vectorSearch: 'auto'`, common words left out of keyword
  // queries) against a reference store on the same file that searches exactly with every word.
  const reference = await openSqliteKnowledgeStore({ path: join(dir, 'corvid.db'), vectorSearch: 'exact', commonWordShare: 1 });
  const exactIndex = await reference.openIndex('bench', { embedder: { model: 'synthetic', dimensions: DIMS } });
  // Wall-clock time, and CPU time of this process (less sensitive to other work on the machine).
  const cpu = new Map();
  const time = async (list, fn) => {
    const c = process.cpuUsage();
    const t = performance.now();
    const out = await fn();
    list.push(performance.now() - t);
    const used = process.cpuUsage(c);
    if (!cpu.has(list)) cpu.set(list, []);
    cpu.get(list).push((used.user + used.system) / 1000);
    return out;
  };
  const hybridOf = async (idx, q) =>
    reciprocalRankFusion(
      [await idx.keywordSearch({ text: q.text, topK: 50 }), await idx.vectorSearch({ vector: q.vector, topK: 50 })],
      60,
    ).slice(0, 10);
  // The first vector search reads the sign bits into memory (when the index is prefiltered).
  const firstStart = performance.now();
  await index.vectorSearch({ vector: queries[0].vector, topK: 10 });
  const firstVectorMs = performance.now() - firstStart;
  const keyword = [];
  const vector = [];
  const hybrid = [];
  const keywordExact = [];
  const vectorExact = [];
  const hybridExact = [];
  let recalled = 0;
  let recalled50 = 0;
  let keywordSame = 0;
  let hybridSame = 0;
  const scores = (hits) => hits.map((h) => h.score.toFixed(4)).join();
  const shared = (a, b) => {
    const ids = new Set(b.map((h) => h.chunk.id));
    return a.filter((h) => ids.has(h.chunk.id)).length / Math.max(1, b.length);
  };
  for (const q of queries) {
    const kw = await time(keyword, () => index.keywordSearch({ text: q.text, topK: 10 }));
    const approx = await time(vector, () => index.vectorSearch({ vector: q.vector, topK: 10 }));
    const hy = await time(hybrid, () => hybridOf(index, q));
    const kwExact = await time(keywordExact, () => exactIndex.keywordSearch({ text: q.text, topK: 10 }));
    const exact = await time(vectorExact, () => exactIndex.vectorSearch({ vector: q.vector, topK: 10 }));
    const hyExact = await time(hybridExact, () => hybridOf(exactIndex, q));
    recalled += shared(approx, exact);
    recalled50 += shared(
      await index.vectorSearch({ vector: q.vector, topK: 50 }),
      await exactIndex.vectorSearch({ vector: q.vector, topK: 50 }),
    );
    if (scores(kw) === scores(kwExact)) keywordSame++;
    hybridSame += shared(hy, hyExact);
  }
  await reference.close();
  await store.close();

  const stat = (xs) => ({ p50: ms(pct(xs, 50)), p99: ms(pct(xs, 99)) });
  const share = (x) => Math.round((x / QUERIES) * 1000) / 1000;
  const result = {
    chunks: stats.chunks,
    dimensions: DIMS,
    ingestChunksPerSecond: Math.round(stats.chunks / (ingestMs / 1000)),
    peakRssMb: Math.round(peakRss / 1048576),
    firstVectorSearchMs: ms(firstVectorMs),
    keyword: stat(keyword),
    vector: stat(vector),
    hybrid: stat(hybrid),
    keywordExact: stat(keywordExact),
    vectorExact: stat(vectorExact),
    hybridExact: stat(hybridExact),
    cpu: { keyword: stat(cpu.get(keyword)), vector: stat(cpu.get(vector)), hybrid: stat(cpu.get(hybrid)) },
    vectorRecallAt10: share(recalled),
    vectorRecallAt50: share(recalled50),
    keywordSameTop10: share(keywordSame),
    hybridOverlapTop10: share(hybridSame),
    queries: QUERIES,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`Knowledge store (SQLite, ${result.chunks} chunks, ${DIMS} dimensions, ${QUERIES} queries)`);
    console.log(`  ingest   ${result.ingestChunksPerSecond} chunks/s (target ≥ 2,000), peak RSS ${result.peakRssMb} MB (target < 400)`);
    console.log(`  first vector search (reads the sign bits when prefiltered): ${result.firstVectorSearchMs} ms`);
    console.log('  default options (vectorSearch auto, common words left out):');
    for (const k of ['keyword', 'vector', 'hybrid'])
      console.log(
        `    ${k.padEnd(8)} p50 ${result[k].p50} ms, p99 ${result[k].p99} ms (CPU time p50 ${result.cpu[k].p50}, p99 ${result.cpu[k].p99})`,
      );
    console.log('  exact reference (vectorSearch exact, every word):');
    for (const k of ['keyword', 'vector', 'hybrid'])
      console.log(`    ${k.padEnd(8)} p50 ${result[`${k}Exact`].p50} ms, p99 ${result[`${k}Exact`].p99} ms`);
    console.log(`  vector recall against exact: @10 ${result.vectorRecallAt10}, @50 ${result.vectorRecallAt50}`);
    console.log(`  keyword top 10 scored as with every word: ${result.keywordSameTop10} of queries`);
    console.log(`  hybrid top 10 shared with the exact reference: ${result.hybridOverlapTop10}`);
    console.log(`  load average ${result.loadAverage.join(' ')}; targets: hybrid p50 ≤ 30 ms, p99 ≤ 100 ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
