import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { openSqliteKnowledgeStore, type SqliteKnowledgeStoreOptions } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
import type { EmbeddedChunk, KnowledgeDocument, KnowledgeIndex, KnowledgeStore, ScoredChunk } from '../../src/types/knowledge.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const DIMS = 64;
const embedder = { model: 'test-64', dimensions: DIMS };

/** A document of chunks `texts[i]` with vectors `vectors[i]`. */
function doc(uri: string, texts: string[], vectors?: number[][], metadata: Record<string, string> = {}) {
  const document: KnowledgeDocument = { uri, source: 'test', text: texts.join('\n'), contentHash: sha(uri + texts.join()), metadata };
  const chunks: EmbeddedChunk[] = texts.map((t, i) => ({
    id: `${uri}#${i}`,
    documentUri: uri,
    index: i,
    text: t,
    tokens: t.split(' ').length,
    hash: sha(`${uri}#${i}:${t}`),
    location: { uri },
    metadata: { ...metadata, part: i },
    ...(vectors ? { vector: Float32Array.from(vectors[i]!) } : {}),
  }));
  return { document, chunks };
}

/** mulberry32: deterministic corpora. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const QUERY = Array.from({ length: DIMS }, () => 1);
/** Nearest to QUERY by cosine (0.71), but half its signs differ from QUERY's: the farthest by sign bits. */
const HIDDEN = Array.from({ length: DIMS }, (_, d) => (d < DIMS / 2 ? 1 : -0.01));
/** Filler `i`: one sign differs from QUERY's (closer than HIDDEN by sign bits), cosine about 0.2. */
const filler = (i: number): number[] =>
  Array.from({ length: DIMS }, (_, d) => (d === i % DIMS ? 1 : d === (i + 1) % DIMS ? -0.01 : 0.01 + (i % 7) * 0.001));

let dir: string;
let path: string;
const stores: KnowledgeStore[] = [];
async function open(options: Partial<SqliteKnowledgeStoreOptions> = {}): Promise<KnowledgeStore> {
  const s = await openSqliteKnowledgeStore({ path, ...options } as SqliteKnowledgeStoreOptions);
  stores.push(s);
  return s;
}
const ids = (hits: ScoredChunk[]): string[] => hits.map((h) => h.chunk.id);
const top = async (index: KnowledgeIndex, vector = QUERY, topK = 1) =>
  ids(await index.vectorSearch({ vector: Float32Array.from(vector), topK }));

/** 1,100 fillers in 11 documents, then the hidden chunk. */
async function fillersAndHidden(index: KnowledgeIndex): Promise<void> {
  for (let d = 0; d < 11; d++) {
    const n = Array.from({ length: 100 }, (_, i) => d * 100 + i);
    const f = doc(
      `fill-${d}.md`,
      n.map((i) => `filler ${i}`),
      n.map(filler),
      { kind: 'filler' },
    );
    await index.putDocument(f.document, f.chunks);
  }
  const h = doc('hidden.md', ['the hidden one'], [HIDDEN], { kind: 'hidden' });
  await index.putDocument(h.document, h.chunks);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corvid-kb-search-'));
  path = join(dir, 'kb.db');
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite knowledge store: vector search modes', () => {
  it('auto searches exactly below prefilterFrom and through the sign-bit prefilter from there; exact and binary as asked', async () => {
    await fillersAndHidden(await (await open()).openIndex('kb', { embedder }));
    // 1,101 vectors: the prefilter keeps 1,000 candidates by sign bits, and the hidden chunk is the farthest.
    expect(await top(await (await open()).openIndex('kb', { embedder }))).toEqual(['hidden.md#0']);
    expect(await top(await (await open({ vectorSearch: 'exact', prefilterFrom: 0 })).openIndex('kb', { embedder }))).toEqual([
      'hidden.md#0',
    ]);
    const prefiltered = await top(await (await open({ prefilterFrom: 1000 })).openIndex('kb', { embedder }));
    expect(prefiltered[0]).toMatch(/^fill-/);
    expect(await top(await (await open({ vectorSearch: 'binary' })).openIndex('kb', { embedder }))).toEqual(prefiltered);
  }, 60_000);

  it('filtered searches stay exact: a filter never loses what the exact search returns', async () => {
    const s = await open({ vectorSearch: 'binary' });
    const index = await s.openIndex('kb', { embedder });
    await fillersAndHidden(index);
    const filtered = await index.vectorSearch({ vector: Float32Array.from(QUERY), topK: 3, filter: { kind: 'hidden' } });
    expect(ids(filtered)).toEqual(['hidden.md#0']);
    expect(filtered[0]!.score).toBeCloseTo((32 - 0.32) / (8 * Math.sqrt(32 + 32 * 0.0001)), 5);
    const reference = await (await open({ vectorSearch: 'exact' })).openIndex('kb', { embedder });
    const fillers = { vector: Float32Array.from(filler(5)), topK: 5, filter: { kind: 'filler' } };
    expect(await index.vectorSearch(fillers)).toEqual(await reference.vectorSearch(fillers));
  }, 60_000);

  it('the prefilter finds what exact search finds on a clustered corpus (recall@10 ≥ 0.95), with the same scores', async () => {
    const rand = prng(7);
    const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
    const centroids = Array.from({ length: 30 }, () => Array.from({ length: DIMS }, gauss));
    const near = (c: number) => centroids[c]!.map((x) => x + gauss() * 0.6);
    const index = await (await open({ prefilterFrom: 1000 })).openIndex('kb', { embedder });
    for (let d = 0; d < 30; d++) {
      const vectors = Array.from({ length: 100 }, () => near(Math.floor(rand() * 30)));
      const f = doc(
        `c-${d}.md`,
        vectors.map((_, i) => `chunk ${d} ${i}`),
        vectors,
      );
      await index.putDocument(f.document, f.chunks);
    }
    const reference = await (await open({ vectorSearch: 'exact' })).openIndex('kb', { embedder });
    let recalled = 0;
    for (let q = 0; q < 20; q++) {
      const query = { vector: Float32Array.from(near(q)), topK: 10 };
      const [approx, exact] = [await index.vectorSearch(query), await reference.vectorSearch(query)];
      const exactScores = new Map(exact.map((h) => [h.chunk.id, h.score]));
      for (const h of approx) if (exactScores.has(h.chunk.id)) expect(h.score).toBeCloseTo(exactScores.get(h.chunk.id)!, 5);
      recalled += approx.filter((h) => exactScores.has(h.chunk.id)).length / 10;
    }
    expect(recalled / 20).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it("keeps the in-memory sign bits in step with this connection's writes, every index object alike", async () => {
    const s = await open({ vectorSearch: 'binary' });
    const index = await s.openIndex('kb', { embedder });
    const twin = await s.openIndex('kb', { embedder });
    await fillersAndHidden(index);
    expect(await top(index, filler(3))).toEqual(['fill-0.md#3']);
    const exact = doc('exact.md', ['points along the query'], [QUERY]);
    await twin.putDocument(exact.document, exact.chunks);
    expect(await top(index)).toEqual(['exact.md#0']);
    await index.deleteDocuments(['exact.md', ...Array.from({ length: 8 }, (_, d) => `fill-${d}.md`)]);
    // 300 vectors left: every one is a candidate now, so the hidden chunk is found again.
    expect(await top(twin)).toEqual(['hidden.md#0']);
    expect((await top(twin, filler(3), 5)).filter((id) => id.startsWith('fill-0.md'))).toEqual([]);
    expect((await twin.vectorSearch({ vector: Float32Array.from(filler(803)), topK: 1 }))[0]!.chunk.id).toBe('fill-8.md#3');
  }, 60_000);

  it('notices writes of another connection (new, replaced and deleted documents) at the next search', async () => {
    const reader = await (await open({ vectorSearch: 'binary' })).openIndex('kb', { embedder });
    const writer = await (await open()).openIndex('kb', { embedder });
    await fillersAndHidden(writer);
    expect((await top(reader))[0]).toMatch(/^fill-/);
    const exact = doc('exact.md', ['points along the query'], [QUERY]);
    await writer.putDocument(exact.document, exact.chunks);
    expect(await top(reader)).toEqual(['exact.md#0']);
    // Replaced: one chunk deleted and one added, so the row count is unchanged.
    const away = QUERY.map((x, d) => (d < DIMS / 2 ? -x : x));
    const moved = doc('exact.md', ['now half away'], [away]);
    await writer.putDocument(moved.document, moved.chunks);
    expect((await top(reader))[0]).toMatch(/^fill-/);
    expect(await top(reader, away)).toEqual(['exact.md#0']);
    await writer.deleteDocuments(Array.from({ length: 11 }, (_, d) => `fill-${d}.md`));
    expect(await top(reader, QUERY, 5)).toEqual(['hidden.md#0', 'exact.md#0']);
  }, 60_000);

  it('refuses invalid search options', async () => {
    await expect(open({ vectorSearch: 'fast' as never })).rejects.toThrow(KnowledgeError);
    await expect(open({ prefilterFrom: -1 })).rejects.toThrow(/prefilterFrom/);
    await expect(open({ commonWordShare: 0 })).rejects.toThrow(/commonWordShare/);
  });
});

describe('SQLite knowledge store: keyword search with common words', () => {
  it('ranks as a search of every word, leaving out words found in most chunks', async () => {
    const rand = prng(11);
    const rare = ['walrus', 'penguin', 'narwhal', 'puffin', 'otter'];
    const texts = Array.from({ length: 400 }, (_, i) => {
      const words = ['the', 'sea', i % 3 === 0 ? 'cold' : 'warm'];
      for (let k = 0; k < 6; k++) words.push(rand() < 0.1 ? rare[Math.floor(rand() * rare.length)]! : `w${Math.floor(rand() * 300)}`);
      if (i % 2 === 0) words.push('the');
      return words.join(' ');
    });
    const index = await (await open()).openIndex('kb');
    for (let d = 0; d < 4; d++) {
      const part = doc(`d${d}.md`, texts.slice(d * 100, d * 100 + 100));
      await index.putDocument(part.document, part.chunks);
    }
    const every = await (await open({ commonWordShare: 1 })).openIndex('kb');
    const questions = ['the walrus', 'The sea otter', 'the warm sea', 'sea penguin the w7', 'the cold narwhal and the puffin', 'the w1 w2'];
    for (const text of questions) {
      for (const topK of [3, 10, 50]) {
        const [got, want] = [await index.keywordSearch({ text, topK }), await every.keywordSearch({ text, topK })];
        expect(
          got.map((h) => h.score.toFixed(4)),
          `${text} (topK ${topK})`,
        ).toEqual(want.map((h) => h.score.toFixed(4)));
      }
    }
    // Fewer matches of the rarer words than topK: the common words fill the list, as without leaving them out.
    const few = await index.keywordSearch({ text: 'the w299 zebra', topK: 20 });
    expect(few).toHaveLength(20);
    const filtered = { text: 'the sea walrus', topK: 5, filter: { part: 3 } };
    expect(ids(await index.keywordSearch(filtered))).toEqual(ids(await every.keywordSearch(filtered)));
  }, 60_000);
});
