import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import type { EmbeddedChunk, KnowledgeDocument, KnowledgeStore } from '../../src/types/knowledge.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

function doc(uri: string, texts: string[], options: { metadata?: Record<string, string | number | boolean>; vectors?: number[][] } = {}) {
  const text = texts.join('\n\n');
  const metadata = options.metadata ?? {};
  const document: KnowledgeDocument = { uri, source: 'test', text, contentHash: sha(text), metadata };
  const chunks: EmbeddedChunk[] = texts.map((t, i) => ({
    id: `${uri}#${i}`,
    documentUri: uri,
    index: i,
    text: t,
    tokens: t.split(/\s+/).length,
    hash: sha(t),
    location: { uri, lines: [i + 1, i + 1] },
    metadata: { ...metadata, part: i },
    ...(options.vectors ? { vector: new Float32Array(options.vectors[i]!) } : {}),
  }));
  return { document, chunks };
}

const embedder = { model: 'test-embed', dimensions: 3 };

let dir: string;
let path: string;
const open: KnowledgeStore[] = [];
async function store(extra: { vectors?: boolean } = {}): Promise<KnowledgeStore> {
  const s = await openSqliteKnowledgeStore({ path, ...extra });
  open.push(s);
  return s;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corvid-kb-sqlite-'));
  path = join(dir, '.corvid', 'corvid.db');
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite knowledge store', () => {
  it('ranks keyword matches by BM25, higher score first, and returns the chunk with its location', async () => {
    const idx = await (await store()).openIndex('docs');
    const a = doc('a.md', ['The raven is a large black bird.', 'Raven after raven, and more ravens, fly over the raven roost.']);
    const b = doc('b.md', ['A sparrow is small.', 'Crows are clever.']);
    await idx.putDocument(a.document, a.chunks);
    await idx.putDocument(b.document, b.chunks);
    const hits = await idx.keywordSearch({ text: 'raven', topK: 10 });
    expect(hits.map((h) => h.chunk.id)).toEqual(['a.md#1', 'a.md#0']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.chunk).toMatchObject({
      documentUri: 'a.md',
      index: 1,
      location: { uri: 'a.md', lines: [2, 2] },
      metadata: { part: 1 },
    });
    expect(await idx.keywordSearch({ text: 'clever sparrow', topK: 1 })).toHaveLength(1);
    expect(await idx.keywordSearch({ text: 'penguin', topK: 5 })).toEqual([]);
  });

  it('searches user text with FTS5 syntax characters as plain words, never throwing', async () => {
    const idx = await (await store()).openIndex('docs');
    const a = doc('a.md', ['Use NEAR the river (north side) and the "quoted" path-finder: col*umn.']);
    await idx.putDocument(a.document, a.chunks);
    for (const text of [
      '"quoted',
      'col*',
      'NEAR(river north)',
      '-river',
      '(north',
      'path-finder',
      'AND OR NOT',
      'text:river',
      '^north',
      '***',
      '"',
      '',
    ]) {
      await expect(idx.keywordSearch({ text, topK: 5 })).resolves.toBeInstanceOf(Array);
    }
    expect(await idx.keywordSearch({ text: '"quoted', topK: 5 })).toHaveLength(1);
    expect(await idx.keywordSearch({ text: 'NEAR(river north)', topK: 5 })).toHaveLength(1);
    expect(await idx.keywordSearch({ text: '***', topK: 5 })).toEqual([]);
  });

  it('ranks vectors by cosine similarity (1 - distance) with small hand-made vectors', async () => {
    const idx = await (await store()).openIndex('vec', { embedder });
    const a = doc('a.md', ['east', 'north', 'north-east'], {
      vectors: [
        [1, 0, 0],
        [0, 1, 0],
        [1, 1, 0],
      ],
    });
    await idx.putDocument(a.document, a.chunks);
    const hits = await idx.vectorSearch({ vector: new Float32Array([2, 0.1, 0]), topK: 3 });
    expect(hits.map((h) => h.chunk.text)).toEqual(['east', 'north-east', 'north']);
    expect(hits[0]!.score).toBeCloseTo(0.9988, 3);
    expect(hits[1]!.score).toBeCloseTo((Math.SQRT1_2 * (2 + 0.1)) / Math.hypot(2, 0.1), 3);
    const cached = await idx.vectorsByHash([sha('north'), sha('missing')]);
    expect([...cached.keys()]).toEqual([sha('north')]);
    expect([...cached.get(sha('north'))!]).toEqual([0, 1, 0]);
    await expect(idx.vectorSearch({ vector: new Float32Array([1, 0]), topK: 1 })).rejects.toMatchObject({ kind: 'dimension' });
  });

  it('applies exact metadata filters to keyword and vector search (JSON type included)', async () => {
    const idx = await (await store()).openIndex('f', { embedder });
    const en = doc('en.md', ['bird facts one', 'bird facts two'], {
      metadata: { lang: 'en', year: 2024, draft: false },
      vectors: [
        [1, 0, 0],
        [0.9, 0.1, 0],
      ],
    });
    const fr = doc('fr.md', ['bird faits'], { metadata: { lang: 'fr', year: 2023, draft: true }, vectors: [[1, 0, 0]] });
    await idx.putDocument(en.document, en.chunks);
    await idx.putDocument(fr.document, fr.chunks);
    expect((await idx.keywordSearch({ text: 'bird', topK: 10, filter: { lang: 'fr' } })).map((h) => h.chunk.id)).toEqual(['fr.md#0']);
    expect((await idx.keywordSearch({ text: 'bird', topK: 10, filter: { year: 2024, part: 1 } })).map((h) => h.chunk.id)).toEqual([
      'en.md#1',
    ]);
    expect((await idx.keywordSearch({ text: 'bird', topK: 10, filter: { draft: true } })).map((h) => h.chunk.id)).toEqual(['fr.md#0']);
    expect(await idx.keywordSearch({ text: 'bird', topK: 10, filter: { year: '2024' } })).toEqual([]);
    expect(
      (await idx.vectorSearch({ vector: new Float32Array([1, 0, 0]), topK: 5, filter: { lang: 'en' } })).map((h) => h.chunk.id),
    ).toEqual(['en.md#0', 'en.md#1']);
    expect(
      (await idx.vectorSearch({ vector: new Float32Array([1, 0, 0]), topK: 5, filter: { draft: true } })).map((h) => h.chunk.id),
    ).toEqual(['fr.md#0']);
  });

  it('finds filtered vector matches beyond the over-fetched neighbours (exact fallback)', async () => {
    const idx = await (await store()).openIndex('many', { embedder });
    const texts = Array.from({ length: 300 }, (_, i) => `common chunk ${i}`);
    const vectors = texts.map((_, i) => [1, i / 1000, 0]);
    const bulk = doc('bulk.md', texts, { metadata: { kind: 'bulk' }, vectors });
    const rare = doc('rare.md', ['the rare one'], { metadata: { kind: 'rare' }, vectors: [[0, 0, 1]] });
    await idx.putDocument(bulk.document, bulk.chunks);
    await idx.putDocument(rare.document, rare.chunks);
    const hits = await idx.vectorSearch({ vector: new Float32Array([1, 0, 0]), topK: 3, filter: { kind: 'rare' } });
    expect(hits.map((h) => h.chunk.id)).toEqual(['rare.md#0']);
    expect(hits[0]!.score).toBeCloseTo(0, 5);
  });

  it('with vectorSearch binary, prefilters by sign bits and scores the candidates exactly by cosine', async () => {
    const s = await openSqliteKnowledgeStore({ path, vectorSearch: 'binary' });
    open.push(s);
    const e8 = { model: 'e8', dimensions: 8 };
    const idx = await s.openIndex('bits', { embedder: e8 });
    const vectors = [
      [1, 1, 1, 1, -1, -1, -1, -1],
      [1, 1, 1, 0.5, -1, -1, -1, -0.5],
      [-1, -1, -1, -1, 1, 1, 1, 1],
    ];
    const a = doc('a.md', ['same side', 'close by', 'opposite'], { vectors });
    await idx.putDocument(a.document, a.chunks);
    const hits = await idx.vectorSearch({ vector: new Float32Array([1, 1, 1, 1, -1, -1, -1, -1]), topK: 2 });
    expect(hits.map((h) => h.chunk.text)).toEqual(['same side', 'close by']);
    expect(hits[0]!.score).toBeCloseTo(1, 5);
    const exact = await (await store()).openIndex('bits', { embedder: e8 });
    const reference = await exact.vectorSearch({ vector: new Float32Array([1, 1, 1, 1, -1, -1, -1, -1]), topK: 2 });
    expect(reference.map((h) => [h.chunk.text, h.score.toFixed(5)])).toEqual(hits.map((h) => [h.chunk.text, h.score.toFixed(5)]));
    const raw = new Database(path, { readonly: true });
    const bitTable = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'knowledge_vecbits_%'")
      .pluck()
      .get() as string;
    expect(raw.prepare(`SELECT COUNT(*) FROM ${bitTable}`).pluck().get()).toBe(3);
    raw.close();
    await idx.deleteDocuments(['a.md']);
    expect(await idx.vectorSearch({ vector: new Float32Array(8).fill(1), topK: 2 })).toEqual([]);
    expect(await s.dropIndex('bits')).toBe(true);
  });

  it('replaces a document with all its chunks, FTS entries and vectors; deletes likewise', async () => {
    const idx = await (await store()).openIndex('r', { embedder });
    const v1 = doc('a.md', ['old alpha', 'old beta'], {
      vectors: [
        [1, 0, 0],
        [0, 1, 0],
      ],
    });
    await idx.putDocument(v1.document, v1.chunks);
    const v2 = doc('a.md', ['new gamma'], { vectors: [[0, 0, 1]] });
    await idx.putDocument(v2.document, v2.chunks);
    expect(await idx.keywordSearch({ text: 'old', topK: 5 })).toEqual([]);
    expect((await idx.keywordSearch({ text: 'gamma', topK: 5 })).map((h) => h.chunk.id)).toEqual(['a.md#0']);
    expect((await idx.vectorSearch({ vector: new Float32Array([1, 0, 0]), topK: 5 })).map((h) => h.chunk.text)).toEqual(['new gamma']);
    expect(await idx.documentHashes()).toEqual(new Map([['a.md', v2.document.contentHash]]));
    expect(await idx.stats()).toMatchObject({ name: 'r', documents: 1, chunks: 1, embedder });
    await idx.deleteDocuments(['a.md', 'unknown.md']);
    expect(await idx.keywordSearch({ text: 'gamma', topK: 5 })).toEqual([]);
    expect(await idx.vectorSearch({ vector: new Float32Array([0, 0, 1]), topK: 5 })).toEqual([]);
    expect(await idx.stats()).toMatchObject({ documents: 0, chunks: 0 });
  });

  it('keeps the old version intact when an insert fails mid-document (a vector of the wrong dimension)', async () => {
    const idx = await (await store()).openIndex('atomic', { embedder });
    const v1 = doc('a.md', ['first version text', 'second chunk'], {
      vectors: [
        [1, 0, 0],
        [0, 1, 0],
      ],
    });
    await idx.putDocument(v1.document, v1.chunks);
    const bad = doc('a.md', ['replacement text', 'broken chunk'], {
      vectors: [
        [0, 0, 1],
        [1, 1],
      ],
    });
    const err = await idx.putDocument(bad.document, bad.chunks).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KnowledgeError);
    expect(err).toMatchObject({ kind: 'dimension', index: 'atomic', uri: 'a.md' });
    expect((err as Error).message).toMatch(/2 dimensions.*holds 3/);
    expect(await idx.documentHashes()).toEqual(new Map([['a.md', v1.document.contentHash]]));
    expect((await idx.keywordSearch({ text: 'version', topK: 5 })).map((h) => h.chunk.id)).toEqual(['a.md#0']);
    expect(await idx.keywordSearch({ text: 'replacement', topK: 5 })).toEqual([]);
    expect((await idx.vectorSearch({ vector: new Float32Array([0, 0, 1]), topK: 5 })).map((h) => h.chunk.text).sort()).toEqual([
      'first version text',
      'second chunk',
    ]);
    expect(await idx.stats()).toMatchObject({ documents: 1, chunks: 2 });
  });

  it('refuses an index opened with another embedder model or dimension, and drops indexes', async () => {
    const s = await store();
    await s.openIndex('e', { embedder });
    for (const other of [
      { model: 'other', dimensions: 3 },
      { model: 'test-embed', dimensions: 4 },
    ]) {
      const err = await s.openIndex('e', { embedder: other }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KnowledgeError);
      expect(err).toMatchObject({ kind: 'embedder_mismatch', code: 'knowledge_embedder_mismatch', index: 'e' });
      expect((err as Error).message).toMatch(/re-index with test-embed or drop it/);
    }
    expect((await s.openIndex('e')).name).toBe('e');
    const kw = await s.openIndex('kw');
    await expect(kw.vectorSearch({ vector: new Float32Array([1, 0, 0]), topK: 1 })).rejects.toMatchObject({ kind: 'no_embedder' });
    expect((await s.listIndexes()).map((i) => i.name)).toEqual(['e', 'kw']);
    expect(await s.dropIndex('e')).toBe(true);
    expect(await s.dropIndex('e')).toBe(false);
    expect((await s.listIndexes()).map((i) => i.name)).toEqual(['kw']);
    const again = await s.openIndex('e', { embedder: { model: 'other', dimensions: 4 } });
    expect((await again.stats()).embedder).toEqual({ model: 'other', dimensions: 4 });
  });

  it('reopens from disk, and two stores on the same file see each other', async () => {
    const first = await store();
    const idx = await first.openIndex('shared', { embedder });
    const a = doc('a.md', ['persisted magpie'], { vectors: [[0, 1, 0]] });
    await idx.putDocument(a.document, a.chunks);
    const second = await store();
    const idx2 = await second.openIndex('shared', { embedder });
    expect((await idx2.keywordSearch({ text: 'magpie', topK: 1 }))[0]!.chunk.id).toBe('a.md#0');
    const b = doc('b.md', ['second writer jackdaw'], { vectors: [[0, 0, 1]] });
    await idx2.putDocument(b.document, b.chunks);
    expect((await idx.keywordSearch({ text: 'jackdaw', topK: 1 }))[0]!.chunk.id).toBe('b.md#0');
    await first.close();
    await second.close();
    const third = await store();
    const idx3 = await third.openIndex('shared');
    expect(await idx3.stats()).toMatchObject({ documents: 2, chunks: 2, embedder });
    expect((await idx3.vectorSearch({ vector: new Float32Array([0, 1, 0]), topK: 1 }))[0]!.chunk.text).toBe('persisted magpie');
  });

  it('finds a section by the headings above it, also in an index written before headings were indexed', async () => {
    const first = await store();
    const idx = await first.openIndex('docs');
    const a = doc('link.md', ['Creates a symbolic link from the global folder.', 'Unrelated text about caches.']);
    a.chunks[0]!.location.headings = ['npm-link', 'Description'];
    await idx.putDocument(a.document, a.chunks);
    expect((await idx.keywordSearch({ text: 'npm-link description', topK: 5 })).map((h) => h.chunk.id)).toEqual(['link.md#0']);
    await first.close();
    // What schema 1 wrote: one FTS5 column over the chunk text only (Porter stemming, external content).
    const db = new Database(path);
    db.exec('DROP TABLE knowledge_fts_1');
    db.exec(
      "CREATE VIRTUAL TABLE knowledge_fts_1 USING fts5(text, content='knowledge_chunks', content_rowid='id', tokenize='porter unicode61')",
    );
    db.exec('INSERT INTO knowledge_fts_1 (rowid, text) SELECT id, text FROM knowledge_chunks');
    db.exec('DELETE FROM knowledge_schema WHERE version > 1');
    db.close();
    const reopened = await store();
    const idx2 = await reopened.openIndex('docs');
    expect((await idx2.keywordSearch({ text: 'npm-link', topK: 5 })).map((h) => h.chunk.id)).toEqual(['link.md#0']);
    // Rebuilt unstemmed: "links" no longer finds "link".
    expect((await idx2.keywordSearch({ text: 'symbolic links', topK: 5 })).map((h) => h.chunk.id)).toEqual(['link.md#0']);
    expect(await idx2.keywordSearch({ text: 'creating', topK: 5 })).toEqual([]);
    const b = doc('link.md', ['Links a package folder.']);
    await idx2.putDocument(b.document, b.chunks);
    expect(await idx2.keywordSearch({ text: 'symbolic caches', topK: 5 })).toEqual([]);
    const check = new Database(path);
    expect(() => check.exec("INSERT INTO knowledge_fts_1 (knowledge_fts_1) VALUES ('integrity-check')")).not.toThrow();
    check.close();
  });

  it('shares the storage database without disturbing its schema', async () => {
    const storage = await openSqliteStore({ path });
    const kb = await store();
    const idx = await kb.openIndex('docs');
    const a = doc('a.md', ['shared file heron']);
    await idx.putDocument(a.document, a.chunks);
    await storage.close();
    const reopened = await openSqliteStore({ path });
    await reopened.close();
    const db = new Database(path, { readonly: true });
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'knowledge_%' AND name NOT LIKE 'knowledge_fts_%'")
      .pluck()
      .all();
    expect(tables).toEqual(expect.arrayContaining(['knowledge_schema', 'knowledge_indexes', 'knowledge_documents', 'knowledge_chunks']));
    expect(db.prepare('SELECT COUNT(*) FROM corvid_schema').pluck().get()).toBeGreaterThan(0);
    db.close();
    expect((await idx.keywordSearch({ text: 'heron', topK: 1 })).length).toBe(1);
  });

  it('uses a caller-provided connection and leaves it open', async () => {
    const db = new Database(join(dir, 'own.db'));
    const s = await openSqliteKnowledgeStore({ db });
    const idx = await s.openIndex('x');
    const a = doc('a.md', ['provided connection owl']);
    await idx.putDocument(a.document, a.chunks);
    await s.close();
    expect(db.open).toBe(true);
    expect(db.prepare('SELECT COUNT(*) FROM knowledge_chunks').pluck().get()).toBe(1);
    db.close();
  });

  it('without sqlite-vec, keeps keyword search and refuses vector work with an install hint', async () => {
    const s = await store({ vectors: false });
    const idx = await s.openIndex('kw-only', { embedder });
    const a = doc('a.md', ['keyword only wren']);
    await idx.putDocument(a.document, a.chunks);
    expect((await idx.keywordSearch({ text: 'wren', topK: 1 })).length).toBe(1);
    const err = await idx.vectorSearch({ vector: new Float32Array([1, 0, 0]), topK: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unsupported' });
    expect((err as Error).message).toMatch(/npm install sqlite-vec/);
    const v = doc('b.md', ['with vector'], { vectors: [[1, 0, 0]] });
    await expect(idx.putDocument(v.document, v.chunks)).rejects.toMatchObject({ kind: 'unsupported' });
    expect(await idx.stats()).toMatchObject({ documents: 1, chunks: 1 });
  });
});
