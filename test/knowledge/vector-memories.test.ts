import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { MemoryKnowledgeStore } from '../../src/knowledge/memory-knowledge-store.js';
import { openSqliteKnowledgeStore } from '../../src/knowledge/sqlite-knowledge-store.js';
import { withVectorMemories } from '../../src/knowledge/vector-memories.js';
import { openStore } from '../../src/storage/index.js';
import type { KnowledgeStore } from '../../src/types/knowledge.js';
import type { Store } from '../../src/types/storage/store.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

/** The paraphrase: "beverage" and "drink" mean the same to the fake embedder, and no word is shared with the memory. */
const SYNONYMS = { beverage: 'drink', drinks: 'drink', favourite: 'preferred', favorite: 'preferred', morning: 'breakfast' };
const scope = { userId: 'ada', agent: 'helper' };

let server: FakeEmbeddingsServer;
const dir = mkdtempSync(join(tmpdir(), 'corvid-vector-memories-'));
beforeAll(async () => {
  server = await startFakeEmbeddingsServer({ synonyms: SYNONYMS });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const embedder = () =>
  modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).embedding('text-embedding-3-small'), { retryDelayMs: 1 });

const targets: Array<{ name: string; open: () => Promise<{ store: Store; knowledge: KnowledgeStore }> }> = [
  { name: 'memory', open: async () => ({ store: await openStore({ driver: 'memory' }), knowledge: new MemoryKnowledgeStore() }) },
  {
    name: 'sqlite (sqlite-vec, the storage file)',
    open: async () => {
      const path = join(dir, `${Date.now()}-${Math.random().toString(36).slice(2)}.db`);
      return { store: await openStore({ driver: 'sqlite', path }), knowledge: await openSqliteKnowledgeStore({ path }) };
    },
  },
];

describe.each(targets)('vector memories: $name', ({ open }) => {
  it('finds a paraphrase that keyword search misses, and keeps keyword hits first when both agree', async () => {
    const { store: plain, knowledge } = await open();
    const store = withVectorMemories(plain, { knowledge, embedder: embedder() });
    try {
      await store.memories.save(scope, { key: 'preferred-drink', value: 'Black coffee at breakfast', category: 'taste' });
      await store.memories.save(scope, { key: 'editor', value: 'Uses vim with a dark theme' });
      await store.memories.save({ userId: 'bob', agent: 'helper' }, { key: 'bob-drink', value: 'Green tea at breakfast' });
      const query = 'favourite morning beverage';
      expect(await plain.memories.search(scope, query)).toEqual([]);
      const hits = await store.memories.search(scope, query, { limit: 3 });
      expect(hits.map((h) => h.memory.key)).toEqual(['preferred-drink']);
      expect(hits[0].memory.value).toBe('Black coffee at breakfast');
      expect(hits[0].score).toBeGreaterThan(0);
      const both = await store.memories.search(scope, 'vim theme', { limit: 2 });
      expect(both[0].memory.key).toBe('editor');
      expect(await store.memories.search(scope, query, { category: 'other' })).toEqual([]);
    } finally {
      await store.close();
      await knowledge.close();
    }
  });

  it('follows changes and deletes, embedding only what changed', async () => {
    const { store: plain, knowledge } = await open();
    const store = withVectorMemories(plain, { knowledge, embedder: embedder() });
    try {
      await store.memories.save(scope, { key: 'drink', value: 'Black coffee' });
      await store.memories.save(scope, { key: 'pet', value: 'A cat named Turing' });
      await store.memories.search(scope, 'beverage');
      const sent = server.requests.flatMap((r) => r.input);
      await store.memories.search(scope, 'beverage');
      const again = server.requests.flatMap((r) => r.input).slice(sent.length);
      expect(again).toEqual(['beverage']);
      await store.memories.save(scope, { key: 'pet', value: 'A dog named Hopper' });
      await store.memories.delete(scope, 'drink');
      const before = server.requests.flatMap((r) => r.input).length;
      expect(await store.memories.search(scope, 'beverage')).toEqual([]);
      expect(server.requests.flatMap((r) => r.input).slice(before)).toEqual(['pet: A dog named Hopper', 'beverage']);
    } finally {
      await store.close();
      await knowledge.close();
    }
  });
});
