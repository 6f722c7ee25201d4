#!/usr/bin/env node
// Retrieval quality of the knowledge subsystem on this repository's docs/: the labelled questions of
// bench/knowledge-questions.json (each names the document and the heading of the section that
// answers it) are searched in keyword, vector and hybrid mode (topK 5) over docs/*.md ingested with
// the markdown chunker (400 tokens, overlap 40) into the memory store. A hit is relevant when it
// comes from that document and the heading is in its heading path. Reports recall@5 (the answer is
// among the first five hits) and MRR (mean of 1 / rank of the first relevant hit, 0 when absent).
// Vectors are offline and NOT a real embedding model: hashed word vectors (each lower-cased word
// hashed into one of 256 dimensions, L2-normalised) — the same idea as the tests' fake embeddings
// server. So "vector" here measures word overlap through a lossy hash, not semantic similarity.
// `--store=sqlite` uses the SQLite knowledge store (in memory) instead, with `--common-word-share=x`
// passed on as its `commonWordShare` (keyword search leaving out words found in more than that share
// of the chunks; default 0.5, 1 keeps every word).
// `npm run build`, then `node bench/knowledge-quality.mjs [--store=sqlite] [--common-word-share=0.5] [--json]`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'knowledge', 'index.js');
if (!existsSync(ENTRY)) {
  console.error(`${ENTRY} is missing: run "npm run build" first`);
  process.exit(1);
}
const { createKnowledgeBase, directorySource, openSqliteKnowledgeStore } = await import(pathToFileURL(ENTRY).href);
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const share = option('common-word-share');
const store =
  option('store') === 'sqlite'
    ? await openSqliteKnowledgeStore({ path: ':memory:', ...(share ? { commonWordShare: Number(share) } : {}) })
    : undefined;
const questions = JSON.parse(readFileSync(join(ROOT, 'bench', 'knowledge-questions.json'), 'utf8'));
const DIMS = 256;

function fnv(word) {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
/** Hashed word vectors: similar word sets give close vectors; no meaning is involved. */
const hashedWords = {
  model: 'hashed-words-256',
  dimensions: DIMS,
  async embed(texts) {
    return texts.map((text) => {
      const v = new Float32Array(DIMS);
      for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) v[fnv(w) % DIMS] += 1;
      let n = 0;
      for (const x of v) n += x * x;
      n = Math.sqrt(n) || 1;
      return v.map((x) => x / n);
    });
  },
};

const norm = (s) => s.replace(/[`*]/g, '').trim().toLowerCase();
const kb = createKnowledgeBase({
  name: 'docs',
  sources: [directorySource({ path: join(ROOT, 'docs'), include: ['*.md'] })],
  chunking: { strategy: 'markdown', maxTokens: 400, overlapTokens: 40 },
  embedder: hashedWords,
  store,
});
const report = await kb.ingest();
const results = {};
for (const mode of ['keyword', 'vector', 'hybrid']) {
  let found = 0;
  let rr = 0;
  for (const q of questions) {
    const hits = await kb.search(q.question, { mode, topK: 5 });
    const rank = hits.findIndex(
      (h) => h.chunk.documentUri === q.doc && (h.chunk.location.headings ?? []).some((x) => norm(x) === norm(q.heading)),
    );
    if (rank >= 0) {
      found++;
      rr += 1 / (rank + 1);
    }
  }
  results[mode] = {
    recallAt5: Math.round((found / questions.length) * 1000) / 1000,
    mrr: Math.round((rr / questions.length) * 1000) / 1000,
  };
}
const out = {
  store: store ? 'sqlite' : 'memory',
  questions: questions.length,
  documents: report.added.length,
  chunks: report.chunks,
  ...results,
};
if (process.argv.includes('--json')) console.log(JSON.stringify(out));
else {
  console.log(
    `Retrieval quality on docs/ (${out.documents} documents, ${out.chunks} chunks, ${out.questions} questions, top 5, ${store ? 'SQLite' : 'memory'} store)`,
  );
  for (const mode of ['keyword', 'vector', 'hybrid'])
    console.log(`  ${mode.padEnd(8)} recall@5 ${results[mode].recallAt5}  MRR ${results[mode].mrr}`);
  console.log('  vectors: hashed word vectors (offline stand-in, not a semantic embedding model)');
}
