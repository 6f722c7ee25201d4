/**
 * Keyword ranking: the SQLite store re-ranks FTS5's candidates with the memory store's BM25, whose
 * idf keeps a weight for a word found in more than half the chunks (FTS5's bm25() gives it none).
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { MemoryKnowledgeStore } from '../../src/knowledge/stores/memory/memory-knowledge-store.js';
import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
import type { EmbeddedChunk, KnowledgeDocument, KnowledgeStore } from '../../src/types/knowledge.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** One document per text, of one chunk. */
function page(uri: string, text: string, headings?: string[]): { document: KnowledgeDocument; chunks: EmbeddedChunk[] } {
  const document: KnowledgeDocument = { uri, source: 'test', text, contentHash: sha(text), metadata: {} };
  const chunk: EmbeddedChunk = {
    id: `${uri}#0`,
    documentUri: uri,
    index: 0,
    text,
    tokens: text.split(' ').length,
    hash: sha(text),
    location: { uri, ...(headings ? { headings } : {}) },
    metadata: {},
  };
  return { document, chunks: [chunk] };
}

// "install" is in 2 of 10 chunks, "package" in 6. `short.md` is the shortest chunk with "install";
// `both.md` is one word longer and also has "package": a word of 6 chunks in 10 weighs nothing in
// FTS5's BM25 (so the shorter chunk would come first), and 0.53 (against 1.48 for "install") in
// Lucene's BM25, enough to put the chunk that has both words first.
const PAGES: [string, string][] = [
  ['short.md', 'install now'],
  ['both.md', 'install package now'],
  ['p1.md', 'package notes for the release one'],
  ['p2.md', 'package notes for the release two'],
  ['p3.md', 'package files and their layout here'],
  ['p4.md', 'package scripts run before each step'],
  ['p5.md', 'package lock keeps versions the same'],
  ['o1.md', 'registry mirrors answer requests quickly here'],
  ['o2.md', 'tokens expire after thirty days always'],
  ['o3.md', 'workspaces share one folder of modules'],
];

async function fill(store: KnowledgeStore) {
  const index = await store.openIndex('kb');
  for (const [uri, text] of PAGES) {
    const p = page(uri, text);
    await index.putDocument(p.document, p.chunks);
  }
  return index;
}

describe('keyword ranking', () => {
  it('puts the chunk with every word of the question first, also when one word is in most chunks', async () => {
    const sqlite = await openSqliteKnowledgeStore({ path: ':memory:' });
    const memory = new MemoryKnowledgeStore();
    try {
      const inSqlite = await (await fill(sqlite)).keywordSearch({ text: 'install package', topK: 3 });
      const inMemory = await (await fill(memory)).keywordSearch({ text: 'install package', topK: 3 });
      expect(inSqlite.map((h) => h.chunk.documentUri).slice(0, 2)).toEqual(['both.md', 'short.md']);
      // Both stores score with the same BM25.
      expect(inSqlite.map((h) => [h.chunk.documentUri, h.score.toFixed(4)])).toEqual(
        inMemory.map((h) => [h.chunk.documentUri, h.score.toFixed(4)]),
      );
      // The chunks with only "package" follow, the shortest first.
      expect(inSqlite[2]!.chunk.text).toContain('package');
    } finally {
      await sqlite.close();
    }
  });

  it('ranks a rare word above a common one: the chunk with "install" comes before those with "package" alone', async () => {
    const sqlite = await openSqliteKnowledgeStore({ path: ':memory:', commonWordShare: 1 });
    try {
      const hits = await (await fill(sqlite)).keywordSearch({ text: 'package now install', topK: 10 });
      expect(hits.map((h) => h.chunk.documentUri).slice(0, 2)).toEqual(['both.md', 'short.md']);
      expect(hits).toHaveLength(7);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    } finally {
      await sqlite.close();
    }
  });

  it('counts a heading word twice, in both stores alike, and finds no other form of a word (no stemming)', async () => {
    const sqlite = await openSqliteKnowledgeStore({ path: ':memory:' });
    const memory = new MemoryKnowledgeStore();
    const pages = [
      page('text.md', 'publish a package to the registry', ['Guide']),
      page('heading.md', 'send a package to the registry', ['Publish']),
      page('other.md', 'publishing notes and published files', ['Notes']),
      page('filler.md', 'tokens expire after thirty days', ['Tokens']),
    ];
    try {
      const found = [];
      for (const store of [sqlite, memory]) {
        const index = await store.openIndex('kb');
        for (const p of pages) await index.putDocument(p.document, p.chunks);
        found.push((await index.keywordSearch({ text: 'publish', topK: 5 })).map((h) => [h.chunk.documentUri, h.score.toFixed(4)]));
      }
      expect(found[0]!.map(([uri]) => uri)).toEqual(['heading.md', 'text.md']);
      expect(found[0]).toEqual(found[1]);
    } finally {
      await sqlite.close();
    }
  });
});
