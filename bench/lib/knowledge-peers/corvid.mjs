// Corvid's side of bench/knowledge-peers.mjs: the SQLite knowledge store with its default options (FTS5 BM25 leaving
// out words found in more than half the chunks; vectorSearch 'auto': exact below 20,000 vectors, the sign-bit prefilter
// with exact re-scoring from there), as bench/knowledge.mjs measures it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dist = (file) => import(pathToFileURL(join(ROOT, 'dist', 'knowledge', file)).href);

/**
 * Opens an empty Corvid SQLite knowledge index in `dir`.
 * @param {{ dir: string, dims: number }} options
 */
export async function open({ dir, dims }) {
  const { openSqliteKnowledgeStore } = await dist('sqlite-knowledge-store.js');
  const { reciprocalRankFusion } = await dist('rrf.js');
  const store = await openSqliteKnowledgeStore({ path: join(dir, 'corvid.db') });
  const index = await store.openIndex('bench', { embedder: { model: 'synthetic', dimensions: dims } });
  const ids = (hits) => hits.map((h) => h.chunk.id);
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return {
    label: 'Corvid SQLite store',
    batchDocs: 1,
    versions: { corvid: version },
    /** One `putDocument` (one transaction) per document. */
    async ingest(batch) {
      for (const { document, chunks } of batch) await index.putDocument(document, chunks);
    },
    async finish() {},
    modes: {
      keyword: async (q) => ids(await index.keywordSearch({ text: q.text, topK: 10 })),
      vector: async (q) => ids(await index.vectorSearch({ vector: q.vector, topK: 10 })),
      hybrid: async (q) =>
        ids(
          reciprocalRankFusion(
            [await index.keywordSearch({ text: q.text, topK: 50 }), await index.vectorSearch({ vector: q.vector, topK: 50 })],
            60,
          ).slice(0, 10),
        ),
    },
    close: () => store.close(),
  };
}
