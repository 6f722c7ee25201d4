import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { MemoryKnowledgeStore } from '../../src/knowledge/stores/memory/memory-knowledge-store.js';
import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
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

const PG_URL = process.env.CORVID_TEST_POSTGRES_URL;
if (!PG_URL) console.log('[knowledge] Postgres vector memories skipped: CORVID_TEST_POSTGRES_URL is not set');

describe.skipIf(!PG_URL)('vector memories: postgres', () => {
  it('finds the paraphrase with pgvector, or says how to install it without', async () => {
    const schema = `corvid_vm_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const { openPostgresKnowledgeStore } = await import('../../src/knowledge/stores/postgres/postgres-knowledge-store.js');
    const plain = await openStore({ driver: 'postgres', url: PG_URL, schema, poolSize: 2 });
    const knowledge = await openPostgresKnowledgeStore({ url: PG_URL!, schema, poolSize: 2 });
    const store = withVectorMemories(plain, { knowledge, embedder: embedder(), closeKnowledge: true });
    try {
      await store.memories.save(scope, { key: 'preferred-drink', value: 'Black coffee at breakfast' });
      const result = await store.memories.search(scope, 'favourite morning beverage').catch((e: unknown) => e as Error);
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      const hasPgvector = (await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rows.length > 0;
      await client.end();
      if (hasPgvector) expect((result as { memory: { key: string } }[]).map((h) => h.memory.key)).toEqual(['preferred-drink']);
      else expect((result as Error).message).toMatch(/needs the PostgreSQL extension pgvector.*apt install postgresql-\d+-pgvector/);
    } finally {
      await store.close();
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
    }
  });
});
