import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, describe, expect, it } from 'vitest';

import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { directorySource } from '../../src/knowledge/directory-source.js';
import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { createKnowledgeBase } from '../../src/knowledge/knowledge-base.js';
import { openPostgresKnowledgeStore } from '../../src/knowledge/stores/postgres/postgres-knowledge-store.js';
import type { KnowledgeStore } from '../../src/types/knowledge.js';
import { startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';
import { knowledgeStoreCases, sampleDocument } from './support/store-cases.js';

const URL = process.env.CORVID_TEST_POSTGRES_URL;
const SKIP = URL ? undefined : 'CORVID_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test; .ci/run sets it)';

/** Runs SQL on the test database with a throwaway connection. */
async function sql(text: string): Promise<Record<string, unknown>[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** Why pgvector cannot be created on the test server, or `undefined` when it can. */
async function pgvectorMissing(): Promise<string | undefined> {
  if (!URL) return undefined;
  const rows = await sql("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  return rows.length > 0
    ? undefined
    : 'the extension pgvector is not installed on the test server (apt install postgresql-<version>-pgvector)';
}
const NO_PGVECTOR = await pgvectorMissing();

const schemas: string[] = [];
const newSchema = (): string => {
  const name = `corvid_kb_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  schemas.push(name);
  return name;
};
afterAll(async () => {
  if (URL) for (const s of schemas) await sql(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
});

knowledgeStoreCases('postgres', () => openPostgresKnowledgeStore({ url: URL!, schema: newSchema(), poolSize: 2 }), {
  skip: SKIP,
  skipVectorSearch: NO_PGVECTOR,
});

async function withStore(body: (store: KnowledgeStore, schema: string) => Promise<void>): Promise<void> {
  const schema = newSchema();
  const store = await openPostgresKnowledgeStore({ url: URL!, schema, poolSize: 2 });
  try {
    await body(store, schema);
  } finally {
    await store.close();
  }
}

/**
 * A store where `CREATE EXTENSION vector` fails: the server's own when pgvector is not installed; otherwise a
 * database of its own, owned by a role that is not a superuser (pgvector is not a trusted extension), dropped after.
 */
async function withStoreWithoutPgvector(body: (store: KnowledgeStore) => Promise<void>): Promise<void> {
  if (NO_PGVECTOR) return withStore(body);
  const name = `corvid_kb_nopgv_${randomBytes(4).toString('hex')}`;
  await sql(`CREATE ROLE ${name} LOGIN`);
  await sql(`CREATE DATABASE ${name} OWNER ${name}`);
  const url = new globalThis.URL(URL!);
  url.username = name;
  url.password = '';
  url.pathname = `/${name}`;
  try {
    const store = await openPostgresKnowledgeStore({ url: url.href, schema: 'kb', poolSize: 1 });
    try {
      await body(store);
    } finally {
      await store.close();
    }
  } finally {
    await sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await sql(`DROP ROLE IF EXISTS ${name}`);
  }
}

describe.skipIf(Boolean(SKIP))('Postgres knowledge store', () => {
  it('keeps its tables in its own schema and searches any text without a syntax error', () =>
    withStore(async (store, schema) => {
      const index = await store.openIndex('docs');
      const d = sampleDocument('q.md', ["Rotating keys: don't (ever) reuse a revoked key & | ! <-> 'quoted'"]);
      await index.putDocument(d.document, d.chunks);
      for (const text of ["don't", '& | ! <->', "'quoted' (ever)", 'key:*', '\\']) {
        await expect(index.keywordSearch({ text, topK: 3 })).resolves.toBeDefined();
      }
      expect((await index.keywordSearch({ text: 'rotate the keys', topK: 3 })).map((h) => h.chunk.id)).toEqual(['q.md#0']);
      expect(await index.keywordSearch({ text: 'the and of', topK: 3 })).toEqual([]);
      const tables = await sql(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}' ORDER BY table_name`);
      expect(tables.map((t) => t.table_name)).toEqual(['knowledge_chunks', 'knowledge_documents', 'knowledge_indexes', 'knowledge_schema']);
    }));

  it('rolls a document back whole when one of its vectors has the wrong dimension', () =>
    withStore(async (store) => {
      const index = await store.openIndex('vec', { embedder: { model: 'e', dimensions: 3 } });
      const good = sampleDocument('a.md', ['first version'], { vectors: [[1, 0, 0]] });
      await index.putDocument(good.document, good.chunks);
      const bad = sampleDocument('a.md', ['second version', 'broken'], {
        vectors: [
          [1, 0, 0],
          [1, 0],
        ],
      });
      const err = await index.putDocument(bad.document, bad.chunks).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KnowledgeError);
      expect((err as KnowledgeError).kind).toBe('dimension');
      expect((await index.keywordSearch({ text: 'version', topK: 5 })).map((h) => h.chunk.text)).toEqual(['first version']);
    }));

  it('without pgvector: stores vectors, searches keywords, and says how to install pgvector for vector search', () =>
    withStoreWithoutPgvector(async (store) => {
      const index = await store.openIndex('vec', { embedder: { model: 'e', dimensions: 3 } });
      const d = sampleDocument('a.md', ['vectors wait here'], { vectors: [[0.25, 0.5, 1]] });
      await index.putDocument(d.document, d.chunks);
      expect(Array.from((await index.vectorsByHash([d.chunks[0].hash])).get(d.chunks[0].hash)!)).toEqual([0.25, 0.5, 1]);
      expect(await index.keywordSearch({ text: 'vectors', topK: 1 })).toHaveLength(1);
      const err = (await index.vectorSearch({ vector: Float32Array.from([1, 0, 0]), topK: 1 }).catch((e: unknown) => e)) as KnowledgeError;
      expect(err).toBeInstanceOf(KnowledgeError);
      expect(err.kind).toBe('unsupported');
      expect(err.message).toMatch(/pgvector/);
      expect(err.message).toMatch(/apt install postgresql-\d+-pgvector/);
      expect(err.message).toContain('CREATE EXTENSION vector');
      expect(err.message).not.toMatch(/\n\s+at /);
    }));

  it('serves a knowledge base: ingest with embeddings once, keyword search, incremental re-ingest', async () => {
    const server = await startFakeEmbeddingsServer();
    const root = await mkdtemp(join(tmpdir(), 'corvid-kb-pg-'));
    try {
      await writeFile(join(root, 'keys.md'), '# Keys\n\nTo rotate an API key, create a new key, then revoke the old one.\n');
      await writeFile(join(root, 'billing.md'), '# Billing\n\nInvoices are sent on the first day of the month.\n');
      await withStore(async (store) => {
        const embedder = modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).embedding('text-embedding-3-small'), {
          retryDelayMs: 1,
        });
        const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], embedder, store });
        const report = await kb.ingest();
        expect(report.added.sort()).toEqual(['billing.md', 'keys.md']);
        const embedded = server.requests.flatMap((r) => r.input).length;
        expect(embedded).toBeGreaterThanOrEqual(2);
        const hits = await kb.search('how do I rotate a key', { mode: 'keyword' });
        expect(hits[0].chunk.documentUri).toBe('keys.md');
        expect(hits[0].citation).toContain('keys.md');
        expect(await kb.stats()).toMatchObject({ documents: 2, embedder: { model: 'text-embedding-3-small', dimensions: 64 } });
        expect(await kb.ingest()).toMatchObject({ added: [], unchanged: 2, embedded: 0 });
        expect(server.requests.flatMap((r) => r.input).length).toBe(embedded);
      });
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('reports an unreachable server with the URL, password masked', async () => {
    const u = new globalThis.URL(URL!);
    u.port = '1';
    u.password = 'hunter2';
    const err = await openPostgresKnowledgeStore({ url: u.toString(), connectTimeoutMs: 2000 }).catch((e: unknown) => e);
    expect((err as Error).message).toContain('Cannot reach PostgreSQL');
    expect((err as Error).message).not.toContain('hunter2');
  });
});
