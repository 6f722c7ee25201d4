/**
 * `corvid ingest`, `search` and `knowledge` on a config whose `storage:` is Postgres: the built CLI
 * on a temporary folder, the index in a private schema dropped afterwards, embeddings from the
 * fake OpenAI embeddings server.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, corvidIn } from '../cli/cli-harness.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const URL = process.env.CORVID_TEST_POSTGRES_URL;
const SKIP = URL ? undefined : 'CORVID_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test; .ci/run sets it)';
if (SKIP) console.log(`[knowledge] Postgres CLI tests skipped: ${SKIP}`);

const schema = `corvid_kbcli_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
let dir: string;
let server: FakeEmbeddingsServer;

async function pgvectorAvailable(): Promise<boolean> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rows.length > 0;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  if (SKIP) return;
  assertBuilt();
  server = await startFakeEmbeddingsServer();
  dir = mkdtempSync(join(tmpdir(), 'corvid-kb-pg-cli-'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `storage: { url: "${URL}", schema: ${schema} }
embedders:
  e: { provider: openai, model: fake-embed, base_url: ${server.baseURL}, api_key: test }
knowledge:
  docs:
    sources: [{ type: directory, path: ./docs, include: ["**/*.md"] }]
    embedder: e
`,
  );
  writeFileSync(join(dir, 'docs', 'deploy.md'), '# Deploy\n\nRun the rollout script to deploy the service.\n');
  writeFileSync(join(dir, 'docs', 'keys.md'), '# Keys\n\nRotate API keys every ninety days with the vault.\n');
});

afterAll(async () => {
  if (SKIP) return;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
});

const corvid = (...args: string[]) => corvidIn(dir, ...args);

describe.skipIf(Boolean(SKIP))('corvid ingest / search / knowledge on Postgres storage', () => {
  it('ingests with embeddings, searches by keyword, lists, and drops the index', async () => {
    const ingest = await corvid('ingest');
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(/docs: 2 documents read — 2 added.*; 2 chunks written, 2 embedded/);

    const hits = await corvid('search', 'rotating the keys', '--mode', 'keyword');
    expect(hits.code).toBe(0);
    expect(hits.stdout).toMatch(/^keys\.md:1-3 {2}score [\d.]+\n {2}# Keys\n {2}Rotate API keys/);

    const hybrid = await corvid('search', 'rotate keys');
    if (await pgvectorAvailable()) {
      expect(hybrid.stdout).toContain('keys.md');
    } else {
      expect(hybrid.code).toBe(1);
      expect(hybrid.stderr).toContain('needs the PostgreSQL extension pgvector');
      expect(hybrid.stderr).toMatch(/apt install postgresql-\d+-pgvector/);
      expect(hybrid.stderr).not.toMatch(/\n\s+at /);
    }

    const list = await corvid('knowledge', 'list');
    expect(list.stdout).toContain('docs  2 documents, 2 chunks, embedder fake-embed (64 dims)');
    expect(list.stderr).toContain(`(schema ${schema})`);
    expect((await corvid('ingest')).stdout).toContain('0 added, 0 updated, 2 unchanged');
    const drop = await corvid('knowledge', 'drop', 'docs');
    expect(drop.stdout).toContain('Dropped "docs" (2 documents)');
    expect((await corvid('knowledge', 'list')).stdout).toContain('docs  not indexed');
  }, 90_000); // nine CLI processes: slow on a loaded machine
});
