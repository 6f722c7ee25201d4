#!/usr/bin/env node
// Knowledge store benchmark (SQLite: FTS5 BM25 + sqlite-vec). Standalone: `npm run build`, then
// `node bench/knowledge.mjs [--chunks=100000] [--dims=384] [--queries=200] [--json]`.
// A deterministic synthetic corpus (seeded PRNG): documents of 10 chunks of ~80 words drawn from a
// Zipf-distributed 20,000-word vocabulary, and unit vectors scattered around 256 random centroids.
// Measures the ingest rate (chunks/s through putDocument, one transaction per document; generating
// the text and vectors is excluded, no embedder runs), peak RSS while ingesting, and the p50/p99
// latency of a keyword search (3 words), a vector search (a noisy centroid) and a hybrid query
// (both with topK 50, fused by reciprocal rank fusion, k = 60, top 10), first with exact vector
// search, then with `vectorSearch: 'binary'` (sign-bit prefilter, exact re-scoring) and its recall@10
// against the exact search.
// Targets: ingest ≥ 2,000 chunks/s, RSS < 400 MB, hybrid p50 ≤ 30 ms and p99 ≤ 100 ms.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  const binaryStore = await openSqliteKnowledgeStore({ path: join(dir, 'corvid.db'), vectorSearch: 'binary' });
  const binaryIndex = await binaryStore.openIndex('bench', { embedder: { model: 'synthetic', dimensions: DIMS } });
  const time = async (list, fn) => {
    const t = performance.now();
    const out = await fn();
    list.push(performance.now() - t);
    return out;
  };
  const hybridOf = async (idx, q) =>
    reciprocalRankFusion(
      [await idx.keywordSearch({ text: q.text, topK: 50 }), await idx.vectorSearch({ vector: q.vector, topK: 50 })],
      60,
    ).slice(0, 10);
  const keyword = [];
  const vector = [];
  const hybrid = [];
  const vectorBinary = [];
  const hybridBinary = [];
  let recalled = 0;
  for (const q of queries) {
    await time(keyword, () => index.keywordSearch({ text: q.text, topK: 10 }));
    const exact = await time(vector, () => index.vectorSearch({ vector: q.vector, topK: 10 }));
    await time(hybrid, () => hybridOf(index, q));
    const approx = await time(vectorBinary, () => binaryIndex.vectorSearch({ vector: q.vector, topK: 10 }));
    await time(hybridBinary, () => hybridOf(binaryIndex, q));
    const ids = new Set(exact.map((h) => h.chunk.id));
    recalled += approx.filter((h) => ids.has(h.chunk.id)).length / Math.max(1, exact.length);
  }
  await binaryStore.close();
  await store.close();

  const result = {
    chunks: stats.chunks,
    dimensions: DIMS,
    ingestChunksPerSecond: Math.round(stats.chunks / (ingestMs / 1000)),
    peakRssMb: Math.round(peakRss / 1048576),
    keyword: { p50: ms(pct(keyword, 50)), p99: ms(pct(keyword, 99)) },
    vector: { p50: ms(pct(vector, 50)), p99: ms(pct(vector, 99)) },
    hybrid: { p50: ms(pct(hybrid, 50)), p99: ms(pct(hybrid, 99)) },
    vectorBinary: { p50: ms(pct(vectorBinary, 50)), p99: ms(pct(vectorBinary, 99)) },
    hybridBinary: { p50: ms(pct(hybridBinary, 50)), p99: ms(pct(hybridBinary, 99)) },
    binaryRecallAt10: Math.round((recalled / QUERIES) * 1000) / 1000,
    queries: QUERIES,
  };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`Knowledge store (SQLite, ${result.chunks} chunks, ${DIMS} dimensions, ${QUERIES} queries)`);
    console.log(`  ingest   ${result.ingestChunksPerSecond} chunks/s (target ≥ 2,000), peak RSS ${result.peakRssMb} MB (target < 400)`);
    for (const k of ['keyword', 'vector', 'hybrid', 'vectorBinary', 'hybridBinary'])
      console.log(`  ${k.padEnd(12)} p50 ${result[k].p50} ms, p99 ${result[k].p99} ms`);
    console.log(`  binary prefilter recall@10 against exact search: ${result.binaryRecallAt10}`);
    console.log('  targets: hybrid p50 ≤ 30 ms, p99 ≤ 100 ms');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
