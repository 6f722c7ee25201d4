/**
 * The conformance suite every `KnowledgeStore` runs: indexes (open, list, drop, isolation), the
 * embedder recorded and enforced, documents replaced and deleted whole, the embedding cache,
 * BM25 keyword search, cosine vector search and metadata filters.
 * Scores are compared by order only (BM25 variants differ between engines).
 * @example
 * knowledgeStoreCases('memory', async () => new MemoryKnowledgeStore());
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { KnowledgeError } from '../../../src/errors/knowledge-error.js';
import { ValidationError } from '../../../src/errors/validation-error.js';
import type { EmbeddedChunk, KnowledgeDocument, KnowledgeFilter, KnowledgeStore } from '../../../src/types/knowledge.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const EMBEDDER = { model: 'test-embedder', dimensions: 3 };

/** A document and its chunks, one per text; `vectors[i]` becomes chunk i's vector. */
export function sampleDocument(
  uri: string,
  texts: string[],
  options: { metadata?: Record<string, string | number | boolean>; vectors?: number[][] } = {},
): { document: KnowledgeDocument; chunks: EmbeddedChunk[] } {
  const metadata = { path: uri, ...options.metadata };
  const text = texts.join('\n');
  const document: KnowledgeDocument = { uri, source: 'test', title: uri, text, contentHash: sha(text), metadata };
  const chunks = texts.map((t, index): EmbeddedChunk => ({
    id: `${uri}#${index}`,
    documentUri: uri,
    index,
    text: t,
    tokens: Math.ceil(t.length / 4),
    hash: sha(t),
    location: { uri, lines: [index + 1, index + 1], headings: ['Title', `Part ${index}`] },
    metadata: { ...metadata, chunk: index },
    ...(options.vectors?.[index] ? { vector: Float32Array.from(options.vectors[index]) } : {}),
  }));
  return { document, chunks };
}

async function withStore(open: () => Promise<KnowledgeStore>, body: (store: KnowledgeStore) => Promise<void>): Promise<void> {
  const store = await open();
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

async function expectKind(promise: Promise<unknown>, kind: string): Promise<KnowledgeError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KnowledgeError);
  expect((err as KnowledgeError).kind).toBe(kind);
  return err as KnowledgeError;
}

/** Registers the conformance cases for a store; `open` returns a fresh, empty store each time. */
export function knowledgeStoreCases(
  name: string,
  open: () => Promise<KnowledgeStore>,
  options: {
    /** Why the whole suite cannot run here (printed). */
    skip?: string;
    /** Why vector search cannot run here (printed); the other cases still run. */
    skipVectorSearch?: string;
  } = {},
): void {
  if (options.skip) console.log(`[knowledge] ${name} store conformance skipped: ${options.skip}`);
  else if (options.skipVectorSearch) console.log(`[knowledge] ${name} vector search cases skipped: ${options.skipVectorSearch}`);
  describe.skipIf(Boolean(options.skip))(`knowledge store conformance: ${name}`, () => {
    it('opens, lists and drops indexes, each holding its own documents', () =>
      withStore(open, async (store) => {
        const a = await store.openIndex('a');
        const b = await store.openIndex('b');
        const doc = sampleDocument('one.md', ['alpha beta gamma']);
        await a.putDocument(doc.document, doc.chunks);
        expect(await a.stats()).toMatchObject({ name: 'a', documents: 1, chunks: 1 });
        expect(await b.stats()).toMatchObject({ name: 'b', documents: 0, chunks: 0 });
        expect(await b.keywordSearch({ text: 'alpha', topK: 5 })).toEqual([]);
        expect((await store.listIndexes()).map((i) => i.name).sort()).toEqual(['a', 'b']);
        expect(await store.dropIndex('a')).toBe(true);
        expect(await store.dropIndex('a')).toBe(false);
        expect((await store.listIndexes()).map((i) => i.name)).toEqual(['b']);
        const again = await store.openIndex('a');
        expect((await again.stats()).documents).toBe(0);
      }));

    it('keeps document hashes and replaces a document with all of its chunks', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('docs');
        const first = sampleDocument('guide.md', ['the old walrus text', 'second old chunk']);
        await index.putDocument(first.document, first.chunks);
        expect(await index.documentHashes()).toEqual(new Map([['guide.md', first.document.contentHash]]));
        const second = sampleDocument('guide.md', ['the new penguin text']);
        await index.putDocument(second.document, second.chunks);
        expect(await index.documentHashes()).toEqual(new Map([['guide.md', second.document.contentHash]]));
        expect(await index.keywordSearch({ text: 'walrus', topK: 5 })).toEqual([]);
        const hits = await index.keywordSearch({ text: 'penguin', topK: 5 });
        expect(hits.map((h) => h.chunk.id)).toEqual(['guide.md#0']);
        expect(await index.stats()).toMatchObject({ documents: 1, chunks: 1 });
        expect((await index.stats()).updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      }));

    it('returns chunks as they were stored (text, location, metadata)', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('docs');
        const doc = sampleDocument('dir/page.md', ['a unique zeppelin sentence'], { metadata: { lang: 'en', draft: false, year: 2024 } });
        await index.putDocument(doc.document, doc.chunks);
        const [hit] = await index.keywordSearch({ text: 'zeppelin', topK: 1 });
        expect(hit.score).toBeGreaterThan(0);
        const { vector: _vector, ...expected } = doc.chunks[0];
        expect(hit.chunk).toEqual(expected);
      }));

    it('deletes documents by URI and ignores unknown URIs', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('docs');
        for (const [uri, text] of [
          ['a.md', 'apples grow on trees'],
          ['b.md', 'bananas grow in bunches'],
        ]) {
          const d = sampleDocument(uri, [text]);
          await index.putDocument(d.document, d.chunks);
        }
        await index.deleteDocuments(['a.md', 'missing.md']);
        expect([...(await index.documentHashes()).keys()]).toEqual(['b.md']);
        expect(await index.keywordSearch({ text: 'apples', topK: 5 })).toEqual([]);
        expect((await index.keywordSearch({ text: 'grow', topK: 5 })).map((h) => h.chunk.documentUri)).toEqual(['b.md']);
      }));

    it('ranks keyword hits by BM25, honours topK and metadata filters', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('docs');
        const docs = [
          sampleDocument('cats.md', ['cats purr and cats sleep all day long'], { metadata: { topic: 'pets' } }),
          sampleDocument('dogs.md', ['dogs bark and dogs sleep at night'], { metadata: { topic: 'pets' } }),
          sampleDocument('cars.md', ['cars need fuel and sleep in garages'], { metadata: { topic: 'machines' } }),
        ];
        for (const d of docs) await index.putDocument(d.document, d.chunks);
        expect((await index.keywordSearch({ text: 'Cats purring?', topK: 5 }))[0].chunk.documentUri).toBe('cats.md');
        const sleep = await index.keywordSearch({ text: 'sleep', topK: 2 });
        expect(sleep).toHaveLength(2);
        expect(sleep[0].score).toBeGreaterThanOrEqual(sleep[1].score);
        const machines = await index.keywordSearch({ text: 'sleep', topK: 5, filter: { topic: 'machines' } });
        expect(machines.map((h) => h.chunk.documentUri)).toEqual(['cars.md']);
        expect(await index.keywordSearch({ text: 'submarine', topK: 5 })).toEqual([]);
      }));

    it('records the embedder and refuses another model or dimension', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('vec', { embedder: EMBEDDER });
        expect((await index.stats()).embedder).toEqual(EMBEDDER);
        await store.openIndex('vec', { embedder: EMBEDDER });
        await store.openIndex('vec');
        const err = await expectKind(store.openIndex('vec', { embedder: { model: 'other-model', dimensions: 3 } }), 'embedder_mismatch');
        expect(err.code).toBe('knowledge_embedder_mismatch');
        expect(err.message).toContain('test-embedder');
        expect(err.message).toContain('other-model');
        await expectKind(store.openIndex('vec', { embedder: { model: 'test-embedder', dimensions: 4 } }), 'embedder_mismatch');
      }));

    it.skipIf(Boolean(options.skipVectorSearch))('finds nearest chunks by cosine similarity, with topK and filters', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('vec', { embedder: EMBEDDER });
        const x = sampleDocument('x.md', ['points along x', 'mostly x'], {
          vectors: [
            [1, 0, 0],
            [0.9, 0.1, 0],
          ],
          metadata: { axis: 'x' },
        });
        const y = sampleDocument('y.md', ['points along y'], { vectors: [[0, 1, 0]], metadata: { axis: 'y' } });
        await index.putDocument(x.document, x.chunks);
        await index.putDocument(y.document, y.chunks);
        const hits = await index.vectorSearch({ vector: Float32Array.from([2, 0, 0]), topK: 3 });
        expect(hits.map((h) => h.chunk.id)).toEqual(['x.md#0', 'x.md#1', 'y.md#0']);
        expect(hits[0].score).toBeCloseTo(1, 5);
        expect(hits[2].score).toBeCloseTo(0, 5);
        expect(await index.vectorSearch({ vector: Float32Array.from([1, 0, 0]), topK: 1 })).toHaveLength(1);
        const ys = await index.vectorSearch({ vector: Float32Array.from([1, 0, 0]), topK: 5, filter: { axis: 'y' } });
        expect(ys.map((h) => h.chunk.id)).toEqual(['y.md#0']);
      }),
    );

    it('filters by $in, $ne, $nin, number and date ranges, $exists, $startsWith, $and and $or (keyword and vector search)', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('filters', options.skipVectorSearch ? {} : { embedder: EMBEDDER });
        const vector = options.skipVectorSearch ? {} : { vectors: [[1, 0, 0]] };
        const notes = [
          sampleDocument('a.md', ['release notes'], {
            ...vector,
            metadata: { lang: 'en', year: 2022, published: '2022-03-01', draft: false },
          }),
          sampleDocument('b.md', ['release notes'], { ...vector, metadata: { lang: 'fr', year: 2023, published: '2023-06-15T09:30:00Z' } }),
          sampleDocument('c.md', ['release notes'], {
            ...vector,
            metadata: { lang: 'de', year: 2024.5, published: '2024-01-01T01:00:00+02:00', note: '🐦 é crow' },
          }),
          sampleDocument('d.md', ['release notes'], { ...vector, metadata: { lang: 'en', year: '2024', published: 'soon', draft: true } }),
        ];
        for (const d of notes) await index.putDocument(d.document, d.chunks);
        const keyword = async (filter: KnowledgeFilter) =>
          (await index.keywordSearch({ text: 'release notes', topK: 10, filter })).map((h) => h.chunk.documentUri).sort();
        const cases: [KnowledgeFilter, string[]][] = [
          [{ lang: { $in: ['en', 'de'] } }, ['a.md', 'c.md', 'd.md']],
          [{ lang: { $in: [] } }, []],
          [{ lang: { $ne: 'en' } }, ['b.md', 'c.md']],
          [{ lang: { $nin: ['en', 'fr'] } }, ['c.md']],
          [{ draft: { $ne: true } }, ['a.md', 'b.md', 'c.md']],
          [{ year: { $gte: 2023 } }, ['b.md', 'c.md']],
          [{ year: { $gt: 2023, $lt: 2025 } }, ['c.md']],
          [{ year: { $lte: 2022 } }, ['a.md']],
          [{ published: { $gte: '2023-01-01' } }, ['b.md', 'c.md']],
          [{ published: { $lt: '2023-12-31T23:00:00Z' } }, ['a.md', 'b.md']],
          [{ published: { $lte: '2023-12-31T23:00:00Z' } }, ['a.md', 'b.md', 'c.md']],
          [{ published: { $gte: '2023-06-15T09:30:00Z', $lte: '2023-06-15T11:30:00+02:00' } }, ['b.md']],
          [{ draft: { $exists: true } }, ['a.md', 'd.md']],
          [{ draft: { $exists: false } }, ['b.md', 'c.md']],
          [{ published: { $startsWith: '2023-' } }, ['b.md']],
          [{ published: { $startsWith: '202' } }, ['a.md', 'b.md', 'c.md']],
          [{ published: { $startsWith: '' } }, ['a.md', 'b.md', 'c.md', 'd.md']],
          [{ year: { $startsWith: '2024' } }, ['d.md']], // the string '2024', not the number 2024.5
          [{ lang: { $startsWith: 'E' } }, []], // case-sensitive
          [{ published: { $startsWith: '_' } }, []], // no wildcard
          [{ note: { $startsWith: '🐦 é' } }, ['c.md']], // counted in characters, not UTF-16 units
          [{ $or: [{ lang: 'fr' }, { year: { $lt: 2023 } }] }, ['a.md', 'b.md']],
          [{ $and: [{ lang: 'en' }, { draft: false }] }, ['a.md']],
          [{ lang: 'en', $or: [{ year: 2022 }, { year: '2024' }] }, ['a.md', 'd.md']],
        ];
        for (const [filter, expected] of cases) expect(await keyword(filter), JSON.stringify(filter)).toEqual(expected);
        if (!options.skipVectorSearch) {
          const near = await index.vectorSearch({
            vector: Float32Array.from([1, 0, 0]),
            topK: 10,
            filter: { year: { $gte: 2023 }, lang: { $ne: 'de' } },
          });
          expect(near.map((h) => h.chunk.documentUri)).toEqual(['b.md']);
        }
      }));

    it('refuses a malformed filter with a ValidationError that names the key', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('filters');
        const d = sampleDocument('a.md', ['release notes'], { metadata: { year: 2022 } });
        await index.putDocument(d.document, d.chunks);
        const bad: [unknown, RegExp][] = [
          [{ year: { $gt: 'yesterday' } }, /filter\.year\.\$gt must be a number or an ISO 8601 date/],
          [{ year: { $between: [1, 2] } }, /filter\.year\.\$between is not an operator/],
          [{ $not: { year: 1 } }, /filter\.\$not is not an operator/],
          [{ $or: [] }, /filter\.\$or must be a non-empty array/],
          [{ lang: { $in: 'en' } }, /filter\.lang\.\$in must be an array/],
          [{ lang: null }, /filter\.lang must be a string, a number, a boolean or an object of operators/],
          [{ $and: [{ draft: { $exists: 'yes' } }] }, /filter\.\$and\[0\]\.draft\.\$exists must be true or false/],
          [{ path: { $startsWith: 2 } }, /filter\.path\.\$startsWith must be a string/],
        ];
        for (const [filter, message] of bad) {
          const err = await index.keywordSearch({ text: 'release', topK: 5, filter: filter as KnowledgeFilter }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(err, JSON.stringify(filter)).toBeInstanceOf(ValidationError);
          expect((err as Error).message).toMatch(message);
        }
      }));

    it('refuses vector search without an embedder or with the wrong dimension', () =>
      withStore(open, async (store) => {
        const plain = await store.openIndex('plain');
        await expectKind(plain.vectorSearch({ vector: Float32Array.from([1, 0, 0]), topK: 1 }), 'no_embedder');
        const vec = await store.openIndex('vec', { embedder: EMBEDDER });
        await expectKind(vec.vectorSearch({ vector: Float32Array.from([1, 0]), topK: 1 }), 'dimension');
      }));

    it('serves stored vectors by chunk hash (the embedding cache)', () =>
      withStore(open, async (store) => {
        const index = await store.openIndex('vec', { embedder: EMBEDDER });
        const d = sampleDocument('c.md', ['cached one', 'cached two'], {
          vectors: [
            [1, 2, 3],
            [4, 5, 6],
          ],
        });
        await index.putDocument(d.document, d.chunks);
        const found = await index.vectorsByHash([d.chunks[1].hash, sha('never stored')]);
        expect([...found.keys()]).toEqual([d.chunks[1].hash]);
        expect(Array.from(found.get(d.chunks[1].hash)!)).toEqual([4, 5, 6]);
        await index.deleteDocuments(['c.md']);
        expect((await index.vectorsByHash([d.chunks[0].hash])).size).toBe(0);
      }));
  });
}
