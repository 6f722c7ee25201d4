// LanceDB's side of bench/knowledge-peers.mjs (@lancedb/lancedb, embedded, a local folder): one table of id, uri, text
// and a fixed-size float32 vector. Keyword: its native full-text index (`Index.fts()`, default tokenizer); vector:
// cosine, brute force (`bypassVectorIndex()`) and, with `ivfPq`, through an IVF_PQ index (default partitions, sub-vectors
// and nprobes); hybrid: the SDK's own (`nearestTo(…).fullTextSearch(…)` reranked by its `RRFReranker`, k = 60).
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Schema, Utf8 } from 'apache-arrow';

import { packageVersion } from './package-version.mjs';

/**
 * Opens an empty LanceDB table in `dir`.
 * @param {{ dir: string, dims: number, ivfPq?: boolean }} options
 */
export async function open({ dir, dims, ivfPq = true }) {
  const path = join(dir, 'lancedb');
  const db = await lancedb.connect(path);
  const schema = new Schema([
    new Field('id', new Utf8(), false),
    new Field('uri', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('vector', new FixedSizeList(dims, new Field('item', new Float32(), true)), false),
  ]);
  const table = await db.createEmptyTable('chunks', schema);
  const rrf = await lancedb.rerankers.RRFReranker.create(60);
  const ids = (rows) => rows.map((r) => r.id);
  const keyword = (q, limit) => table.query().fullTextSearch(q.text).select(['id']).limit(limit);
  const nearest = (q, exact) => {
    const query = table.query().nearestTo(q.vector).distanceType('cosine');
    return exact ? query.bypassVectorIndex() : query;
  };
  // Hybrid: each side returns `limit` rows and the fused list is cut to `limit`, so 50 and the top 10 of it, as the
  // other systems do.
  const hybrid = async (q, exact) =>
    ids((await nearest(q, exact).fullTextSearch(q.text).rerank(rrf).select(['id']).limit(50).toArray()).slice(0, 10));
  const modes = {
    keyword: async (q) => ids(await keyword(q, 10).toArray()),
    vector: async (q) => ids(await nearest(q, true).select(['id']).limit(10).toArray()),
    hybrid: (q) => hybrid(q, true),
  };
  if (ivfPq) {
    modes.vectorIvfPq = async (q) => ids(await nearest(q, false).select(['id']).limit(10).toArray());
    modes.hybridIvfPq = (q) => hybrid(q, false);
  }
  return {
    label: 'LanceDB',
    batchDocs: 1000,
    versions: { '@lancedb/lancedb': packageVersion('@lancedb/lancedb'), 'apache-arrow': packageVersion('apache-arrow') },
    /** Untimed: plain row objects, the input `add` documents. */
    prepare: (batch) =>
      batch.flatMap(({ chunks }) => chunks.map((c) => ({ id: c.id, uri: c.documentUri, text: c.text, vector: c.vector }))),
    /** One `add` per batch (1,000 documents): each `add` converts the rows to Arrow and writes a table version. */
    async ingest(rows) {
      await table.add(rows);
    },
    /** Builds the full-text index and, with `ivfPq`, the vector index; returns the time of each, in ms. */
    async finish() {
      const times = {};
      let t = performance.now();
      // In a process of its own, with a bigger CPU pool (see lancedb-fts-index.mjs); then this handle moves to the
      // table's version that has the index.
      await promisify(execFile)(process.execPath, [fileURLToPath(new URL('lancedb-fts-index.mjs', import.meta.url)), path], {
        env: { ...process.env, LANCE_CPU_THREADS: process.env.LANCE_CPU_THREADS ?? String(Math.max(4, cpus().length)) },
      });
      await table.checkoutLatest();
      if (!(await table.listIndices()).some((i) => i.indexType === 'FTS')) throw new Error('the LanceDB table has no FTS index');
      times.FTS = performance.now() - t;
      if (ivfPq) {
        t = performance.now();
        await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine' }) });
        times.IVF_PQ = performance.now() - t;
      }
      return times;
    },
    modes,
    close: async () => {
      table.close();
      db.close();
    },
  };
}
