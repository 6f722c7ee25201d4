/**
 * Conversation search by meaning (`withVectorConversations`) on the memory, SQLite and Postgres
 * stores, with the fake OpenAI embeddings server: appended messages are embedded, a paraphrase is
 * found that keyword search misses, an embedder outage loses nothing, messages stored without the
 * wrapper are embedded at the first vector search, deleted sessions leave no vectors behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/core/agent.js';
import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { MemoryKnowledgeStore } from '../../src/knowledge/stores/memory/memory-knowledge-store.js';
import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
import { withVectorConversations } from '../../src/knowledge/vector-conversations.js';
import { openStore } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { memoryTools, type SearchConversationsOutput } from '../../src/tools/index.js';
import type { KnowledgeStore } from '../../src/types/knowledge.js';
import type { Store } from '../../src/types/storage/store.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

/** "beverage" and "drink" mean the same to the fake embedder; the query shares no word with the message. */
const SYNONYMS = { beverage: 'drink', drinks: 'drink', favourite: 'preferred', favorite: 'preferred', morning: 'breakfast' };
const PARAPHRASE = 'favourite morning beverage';

let server: FakeEmbeddingsServer;
const dir = mkdtempSync(join(tmpdir(), 'corvid-vector-conversations-'));
beforeAll(async () => {
  server = await startFakeEmbeddingsServer({ synonyms: SYNONYMS });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const embedder = () =>
  modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).embedding('text-embedding-3-small'), { retryDelayMs: 1 });
const user = (text: string) => ({ message: { role: 'user' as const, content: [{ type: 'text' as const, text }] }, agent: 'helper' });
const sentTexts = (): string[] => server.requests.flatMap((r) => r.input);

interface Target {
  name: string;
  /** A plain store and a knowledge store on the same database (the second call reopens the same one). */
  open: () => Promise<{ store: Store; knowledge: KnowledgeStore; reopen: () => Promise<{ store: Store; knowledge: KnowledgeStore }> }>;
}

const targets: Target[] = [
  {
    name: 'memory',
    open: async () => {
      const store = await openStore({ driver: 'memory' });
      const knowledge = new MemoryKnowledgeStore();
      return { store, knowledge, reopen: async () => ({ store, knowledge }) };
    },
  },
  {
    name: 'sqlite (sqlite-vec, the storage file)',
    open: async () => {
      const path = join(dir, `${Date.now()}-${Math.random().toString(36).slice(2)}.db`);
      const both = async () => ({
        store: await openStore({ driver: 'sqlite', path }),
        knowledge: await openSqliteKnowledgeStore({ path }),
      });
      return { ...(await both()), reopen: both };
    },
  },
];

describe.each(targets)('vector conversation search: $name', ({ open }) => {
  it('finds a paraphrase that keyword search misses, per user, in vector and hybrid modes', async () => {
    const { store: plain, knowledge } = await open();
    const store = withVectorConversations(plain, { knowledge, embedder: embedder() });
    try {
      const ada = await store.sessions.create({ agent: 'helper', userId: 'ada' });
      const bob = await store.sessions.create({ agent: 'helper', userId: 'bob' });
      await store.sessions.append(ada.id, user('My preferred drink is black coffee at breakfast'));
      await store.sessions.appendMany(ada.id, [user('Deploy the service on Friday'), { type: 'run_start', data: {} }]);
      await store.sessions.append(bob.id, user('Green tea at breakfast for me'));

      expect(await store.conversations.search(PARAPHRASE, { userId: 'ada', mode: 'keyword' })).toEqual([]);
      expect(store.conversations.modes).toEqual(['keyword', 'vector', 'hybrid']);
      const vector = await store.conversations.search(PARAPHRASE, { userId: 'ada', mode: 'vector' });
      expect(vector.map((h) => [h.sessionId, h.seq])).toEqual([[ada.id, 1]]);
      expect(vector[0]).toMatchObject({ role: 'user', agent: 'helper', snippet: 'My preferred drink is black coffee at breakfast' });
      expect(vector[0].score).toBeGreaterThan(0.3);
      expect(vector[0].createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

      const hybrid = await store.conversations.search(PARAPHRASE, { userId: 'ada' });
      expect(hybrid.map((h) => h.seq)).toEqual([1]);
      const both = await store.conversations.search('breakfast', { limit: 5 });
      expect(both.map((h) => h.sessionId).sort()).toEqual([ada.id, bob.id].sort());
      expect(await store.conversations.search('deploy friday', { userId: 'ada', limit: 1 })).toMatchObject([{ seq: 2 }]);

      await expect(plain.conversations.search(PARAPHRASE, { mode: 'vector' })).rejects.toThrow(
        'Conversation search mode "vector" needs an embedder: set storage.embedder',
      );
    } finally {
      await store.close();
      await knowledge.close();
    }
  });

  it('loses no message when the embedder fails on append: keyword search finds it, the next vector search embeds it', async () => {
    const { store: plain, knowledge } = await open();
    const errors: unknown[] = [];
    const store = withVectorConversations(plain, { knowledge, embedder: embedder(), onEmbedError: (e) => errors.push(e) });
    try {
      const s = await store.sessions.create({ agent: 'helper' });
      server.failNext = [500, 500, 500, 500]; // the first try and three retries
      await store.sessions.append(s.id, user('My preferred drink: black coffee at breakfast'));
      expect((await store.sessions.messages(s.id)).length).toBe(1);
      expect(await store.conversations.search('coffee', { mode: 'keyword' })).toMatchObject([{ sessionId: s.id, seq: 1 }]);
      const found = await store.conversations.search(PARAPHRASE, { mode: 'vector' });
      expect(errors.length).toBe(1);
      expect(found).toMatchObject([{ sessionId: s.id, seq: 1 }]);
    } finally {
      server.failNext = [];
      await store.close();
      await knowledge.close();
    }
  });

  it('embeds messages stored without it at the first vector search (once), and drops the vectors of deleted sessions', async () => {
    const { store: plain, knowledge, reopen } = await open();
    const a = await plain.sessions.create({ agent: 'helper' });
    const b = await plain.sessions.create({ agent: 'helper' });
    await plain.sessions.append(a.id, user('Preferred drink: black coffee at breakfast'));
    await plain.sessions.append(b.id, user('A favourite drink in the morning: espresso'));
    const store = withVectorConversations(plain, { knowledge, embedder: embedder() });
    let before = sentTexts().length;
    const hits = await store.conversations.search(PARAPHRASE, { mode: 'vector' });
    expect(hits.map((h) => h.sessionId).sort()).toEqual([a.id, b.id].sort());
    expect(sentTexts().slice(before)).toEqual(
      expect.arrayContaining(['Preferred drink: black coffee at breakfast', 'A favourite drink in the morning: espresso', PARAPHRASE]),
    );

    // A new process (or a second wrapper) embeds only what is new since the last check.
    const again = await reopen();
    const second = withVectorConversations(again.store, { knowledge: again.knowledge, embedder: embedder() });
    try {
      before = sentTexts().length;
      await again.store.sessions.append(a.id, user('Tea in the evening'));
      await again.store.sessions.append(b.id, user('Water at lunch'));
      expect((await second.conversations.search('evening tea', { mode: 'vector' }))[0]).toMatchObject({ sessionId: a.id, seq: 2 });
      expect(
        sentTexts()
          .slice(before)
          .filter((t) => t !== 'dimension probe')
          .sort(),
      ).toEqual(['Tea in the evening', 'Water at lunch', 'evening tea']);

      // Deleted through the wrapper: its vectors go at once.
      expect(await second.sessions.delete(a.id)).toBe(true);
      const index = await again.knowledge.openIndex('_conversations');
      expect([...(await index.documentHashes()).keys()].filter((u) => u.startsWith(encodeURIComponent(a.id)))).toEqual([]);
      // Deleted behind its back: the next vector search leaves it out and drops its vectors.
      await again.store.sessions.delete(b.id);
      expect(await second.conversations.search(PARAPHRASE, { mode: 'vector' })).toEqual([]);
      expect([...(await index.documentHashes()).keys()]).toEqual([]);
    } finally {
      await second.close();
      await again.knowledge.close();
      await store.close();
      await knowledge.close();
    }
  });

  it('gives search_conversations a mode (hybrid by default) that finds the paraphrase for the run user', async () => {
    const { store: plain, knowledge } = await open();
    const store = withVectorConversations(plain, { knowledge, embedder: embedder() });
    try {
      const earlier = await store.sessions.create({ id: 'earlier', agent: 'helper', userId: 'ada' });
      await store.sessions.append(earlier.id, user('My preferred drink is black coffee at breakfast'));
      const model = new ScriptedModel([
        {
          toolCalls: [
            { toolName: 'search_conversations', input: { query: PARAPHRASE } },
            { toolName: 'search_conversations', input: { query: PARAPHRASE, mode: 'keyword' } },
          ],
        },
        { text: 'Black coffee.' },
      ]);
      await new Agent({ name: 'helper', model, tools: memoryTools }).run('What do I drink in the morning?', {
        session: { id: 'now', userId: 'ada' },
        store,
      });
      const results = model.calls[1].prompt.flatMap((m) =>
        m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' ? [p.output] : [])) : [],
      );
      const [hybrid, keyword] = results.map((r) => (r as unknown as { value: SearchConversationsOutput }).value);
      // The question in progress matches too ("drink", "morning"), marked as this session's.
      expect(hybrid.mode).toBe('hybrid');
      expect(hybrid.results).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            session_id: 'earlier',
            this_session: false,
            role: 'user',
            snippet: 'My preferred drink is black coffee at breakfast',
          }),
          expect.objectContaining({ session_id: 'now', this_session: true }),
        ]),
      );
      expect(keyword.mode).toBe('keyword');
      expect(keyword.results.map((r) => r.session_id)).toEqual(['now']);
    } finally {
      await store.close();
      await knowledge.close();
    }
  });
});

const PG_URL = process.env.CORVID_TEST_POSTGRES_URL;
if (!PG_URL) console.log('[knowledge] Postgres vector conversations skipped: CORVID_TEST_POSTGRES_URL is not set');

describe.skipIf(!PG_URL)('vector conversation search: postgres', () => {
  it('finds the paraphrase with pgvector, or says how to install it without; keyword search works either way', async () => {
    const schema = `corvid_vc_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const { openPostgresKnowledgeStore } = await import('../../src/knowledge/stores/postgres/postgres-knowledge-store.js');
    const plain = await openStore({ driver: 'postgres', url: PG_URL, schema, poolSize: 2 });
    const knowledge = await openPostgresKnowledgeStore({ url: PG_URL!, schema, poolSize: 2 });
    const store = withVectorConversations(plain, { knowledge, embedder: embedder(), closeKnowledge: true });
    const pg = (await import('pg')).default;
    try {
      const s = await store.sessions.create({ agent: 'helper', userId: 'ada' });
      await store.sessions.append(s.id, user('My preferred drink is black coffee at breakfast'));
      expect(await store.conversations.search('coffee', { userId: 'ada', mode: 'keyword' })).toMatchObject([{ sessionId: s.id }]);
      const result = await store.conversations.search(PARAPHRASE, { userId: 'ada' }).catch((e: unknown) => e as Error);
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      const hasPgvector = (await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rows.length > 0;
      await client.end();
      if (hasPgvector) expect(result).toMatchObject([{ sessionId: s.id, seq: 1 }]);
      else expect((result as Error).message).toMatch(/needs the PostgreSQL extension pgvector.*apt install postgresql-\d+-pgvector/);
    } finally {
      await store.close();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
    }
  }, 60_000);
});
