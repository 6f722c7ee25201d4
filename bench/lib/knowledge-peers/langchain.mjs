// LangChain.js's side of bench/knowledge-peers.mjs: `MemoryVectorStore` (@langchain/classic) for vectors,
// `BM25Retriever` (@langchain/community) for keywords and `EnsembleRetriever` (@langchain/classic, weighted reciprocal
// rank fusion, c = 60, equal weights) for hybrid queries, all through the retriever API.
import { EnsembleRetriever } from '@langchain/classic/retrievers/ensemble';
import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import { BM25Retriever } from '@langchain/community/retrievers/bm25';
import { Document } from '@langchain/core/documents';
import { Embeddings } from '@langchain/core/embeddings';

import { packageVersion } from './package-version.mjs';

/**
 * Embeddings that look the precomputed corpus vectors up by text, so no embedder time is measured: the bench
 * registers each chunk's vector before ingesting it and each query's vector before querying.
 */
class LookupEmbeddings extends Embeddings {
  vectors = new Map();
  constructor() {
    super({});
  }
  take(text) {
    const vector = this.vectors.get(text);
    if (!vector) throw new Error(`no precomputed vector for ${JSON.stringify(text.slice(0, 40))}`);
    return vector;
  }
  async embedDocuments(texts) {
    return texts.map((t) => this.take(t));
  }
  async embedQuery(text) {
    return this.take(text);
  }
}

/** Opens an empty MemoryVectorStore and an empty BM25 corpus. */
export async function open() {
  const embeddings = new LookupEmbeddings();
  const store = new MemoryVectorStore(embeddings);
  const docs = [];
  let bm25;
  let vectorRetriever;
  let hybrid;
  const ids = (found) => found.map((d) => d.id);
  return {
    label: 'LangChain.js MemoryVectorStore + BM25Retriever',
    batchDocs: 1,
    versions: Object.fromEntries(
      ['@langchain/classic', '@langchain/community', '@langchain/core'].map((name) => [name, packageVersion(name)]),
    ),
    /** Untimed: the Documents, and each chunk's vector in the lookup (LangChain's Embeddings contract is number[]). */
    prepare(batch) {
      embeddings.vectors.clear(); // the previous batch is in the store
      return batch.map(({ chunks }) => {
        for (const c of chunks) embeddings.vectors.set(c.text, Array.from(c.vector));
        return chunks.map((c) => new Document({ id: c.id, pageContent: c.text, metadata: { ...c.metadata, uri: c.documentUri } }));
      });
    },
    /** `addDocuments` once per document (its 10 chunks); the BM25 retriever keeps the same Document objects. */
    async ingest(prepared) {
      for (const added of prepared) {
        await store.addDocuments(added);
        docs.push(...added);
      }
    },
    async finish(queries) {
      embeddings.vectors.clear();
      for (const q of queries) embeddings.vectors.set(q.text, Array.from(q.vector));
      bm25 = BM25Retriever.fromDocuments(docs, { k: 10 });
      vectorRetriever = store.asRetriever({ k: 10 });
      hybrid = new EnsembleRetriever({
        retrievers: [BM25Retriever.fromDocuments(docs, { k: 50 }), store.asRetriever({ k: 50 })],
        weights: [0.5, 0.5],
        c: 60,
      });
    },
    modes: {
      keyword: async (q) => ids(await bm25.invoke(q.text)),
      vector: async (q) => ids(await vectorRetriever.invoke(q.text)),
      hybrid: async (q) => ids((await hybrid.invoke(q.text)).slice(0, 10)),
    },
    async close() {},
  };
}
