// The synthetic corpus of the knowledge benchmarks (bench/knowledge.mjs, bench/knowledge-peers.mjs): deterministic,
// from a seeded PRNG, so every run and every system sees the same documents and queries.
// Documents of 10 chunks of 80 words drawn from a Zipf-distributed 20,000-word vocabulary; unit vectors scattered
// around 256 random centroids. One PRNG feeds everything in a fixed order — the centroids, then the documents in
// order (makeDocument(0), makeDocument(1), …), then the queries — so generate the documents in order, all of them,
// before the queries.

/** Chunks per document. */
export const PER_DOC = 10;
const VOCAB = 20_000;
const CENTROIDS = 256;
const SEED = 20261127;

/** mulberry32: a small seeded PRNG, so every run ingests the same corpus. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Words: pronounceable, unique; Zipf weights through a cumulative table.
const syll = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'de', 'po', 'ga', 'ni', 'ro', 'be', 'fu', 'ze'];
const words = Array.from({ length: VOCAB }, (_, i) => {
  let w = '';
  let n = i + 1;
  while (n > 0) {
    w += syll[n % 16];
    n = Math.floor(n / 16);
  }
  return w;
});
const cumulative = new Float64Array(VOCAB);
let total = 0;
for (let i = 0; i < VOCAB; i++) cumulative[i] = total += 1 / (i + 1);

function unit(v) {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

const hex = (n) => n.toString(16).padStart(64, '0');

/**
 * A fresh generator of the corpus (its own PRNG state).
 * @param {{ dims?: number }} [options] vector dimensions (384 by default)
 * @returns {{ dims: number, makeDocument: (d: number) => { document: object, chunks: object[] }, makeQueries: (n: number) => { text: string, vector: Float32Array }[] }}
 *   makeDocument(d): document d and its chunks (id `docs/<d>.md#<i>`, text, metadata, unit `vector`), in the shape of
 *   Corvid's `putDocument`; makeQueries(n): n queries, each 3 words (one Zipf-drawn, two among the 2,000 most frequent)
 *   and a noisy centroid.
 */
export function createKnowledgeCorpus({ dims = 384 } = {}) {
  const rand = prng(SEED);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
  const word = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = VOCAB - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  const centroids = Array.from({ length: CENTROIDS }, () => unit(Float32Array.from({ length: dims }, gauss)));
  const near = (c, noise) => unit(Float32Array.from(centroids[c], (x) => x + gauss() * noise));

  function makeDocument(d) {
    const uri = `docs/${d}.md`;
    const lang = ['en', 'fr', 'de', 'es'][d % 4];
    const chunks = [];
    for (let i = 0; i < PER_DOC; i++) {
      const text = Array.from({ length: 80 }, word).join(' ');
      chunks.push({
        id: `${uri}#${i}`,
        documentUri: uri,
        index: i,
        text,
        tokens: 100,
        hash: hex(d * PER_DOC + i),
        location: { uri, lines: [i * 5 + 1, i * 5 + 5] },
        metadata: { lang, part: i },
        vector: near(Math.floor(rand() * CENTROIDS), 0.08),
      });
    }
    return { document: { uri, source: 'bench', text: '', contentHash: hex(d), metadata: { lang } }, chunks };
  }

  const makeQueries = (n) =>
    Array.from({ length: n }, () => ({
      text: [word(), words[Math.floor(rand() * 2000)], words[Math.floor(rand() * 2000)]].join(' '),
      vector: near(Math.floor(rand() * CENTROIDS), 0.1),
    }));

  return { dims, makeDocument, makeQueries };
}
