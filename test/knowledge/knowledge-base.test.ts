import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { Agent } from '../../src/index.js';
import { directorySource } from '../../src/knowledge/directory-source.js';
import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { sha256 } from '../../src/knowledge/hash.js';
import type { IngestProgress } from '../../src/knowledge/ingest-documents.js';
import { createKnowledgeBase } from '../../src/knowledge/knowledge-base.js';
import type { KnowledgeSource } from '../../src/knowledge/knowledge-source.js';
import { MemoryKnowledgeStore } from '../../src/knowledge/stores/memory/memory-knowledge-store.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const FILES: Record<string, string> = {
  'security.md': '# Security\n\n## Rotating API keys\n\nTo rotate an API key, create a new key, deploy it, then revoke the old key.\n',
  'billing.md': '# Billing\n\nInvoices are sent on the first day of the month. Payments by card or bank transfer.\n',
  'deploy.md': '# Deploying\n\nBuild the container image and push it to the registry, then roll out the new version.\n',
  'src/keys.ts': 'export function rotateKey(old: string): string {\n  return revoke(old) && createKey();\n}\n',
};

let server: FakeEmbeddingsServer;
let root: string;
const embedder = (name?: string) =>
  modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).embedding('text-embedding-3-small'), { retryDelayMs: 1, name });

beforeAll(async () => {
  server = await startFakeEmbeddingsServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'corvid-kb-'));
  await mkdir(join(root, 'src'));
  for (const [path, text] of Object.entries(FILES)) await writeFile(join(root, path), text);
  server.requests.length = 0;
});
afterEach(() => rm(root, { recursive: true, force: true }));

const sentTexts = (): string[] => server.requests.flatMap((r) => r.input);

describe('knowledge base', () => {
  it('ingests a folder, then only what changed: edits re-embedded, deletions leave the index', async () => {
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], embedder: embedder() });
    const progress: IngestProgress[] = [];
    const first = await kb.ingest({ onProgress: (p) => progress.push(p) });
    expect(first.added.sort()).toEqual(['billing.md', 'deploy.md', 'security.md', 'src/keys.ts']);
    expect(first.embedded).toBe(first.chunks);
    // Chunks of several documents go out together: a dimension probe, then one request for all.
    expect(server.requests.map((r) => r.input.length)).toEqual([1, first.chunks]);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4]);
    expect(await kb.stats()).toMatchObject({ documents: 4, embedder: { model: 'text-embedding-3-small', dimensions: 64 } });

    server.requests.length = 0;
    const second = await kb.ingest();
    expect(second).toMatchObject({ added: [], updated: [], deleted: [], unchanged: 4, embedded: 0 });
    expect(server.requests).toHaveLength(0); // nothing embedded twice

    await writeFile(join(root, 'billing.md'), FILES['billing.md'] + '\n## Refunds\n\nRefunds take five working days.\n');
    await unlink(join(root, 'deploy.md'));
    const third = await kb.ingest();
    expect(third).toMatchObject({ added: [], updated: ['billing.md'], deleted: ['deploy.md'], unchanged: 2 });
    // Only the new section was sent; the unchanged first chunk of billing.md came from the cache.
    expect(sentTexts()).toEqual(['## Refunds\n\nRefunds take five working days.']);
    expect(await kb.search('container registry', { mode: 'keyword' })).toEqual([]);
    const refunds = await kb.search('refunds', { mode: 'keyword' });
    expect(refunds[0].citation).toBe('billing.md:5-7');
    expect(refunds[0].chunk.location.headings).toEqual(['Billing', 'Refunds']);
  });

  it('finds the expected top hit by keyword, vector and hybrid search, each with a citation', async () => {
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], embedder: embedder() });
    await kb.ingest();
    for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
      const hits = await kb.search('how do I rotate an API key', { mode, topK: 3 });
      expect(hits[0].citation, mode).toBe('security.md:1-5');
      expect(hits[0].chunk.text, mode).toContain('revoke the old key');
      expect(hits.length, mode).toBeLessThanOrEqual(3);
    }
    const hybrid = await kb.search('how do I rotate an API key', { topK: 2 });
    expect(hybrid[0].score).toBeCloseTo(1, 6); // first in both lists: 0.6 × 1 + 0.4 × 1
    const code = await kb.search('rotate key', { filter: { format: 'code' } });
    expect(code.map((h) => h.citation)).toEqual(['src/keys.ts:1-3']);
  });

  it('answers a search before the first ingest with no hits, in every mode, embedding nothing', async () => {
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], embedder: embedder() });
    for (const mode of ['keyword', 'vector', 'hybrid'] as const) expect(await kb.search('rotate an API key', { mode }), mode).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('works keyword-only without an embedder: hybrid falls back to keyword, vector is refused', async () => {
    const kb = createKnowledgeBase({ name: 'plain', sources: [directorySource({ path: root })] });
    const report = await kb.ingest();
    expect(report.embedded).toBe(0);
    const hits = await kb.search('invoices payments', { mode: 'hybrid' });
    expect(hits[0].citation).toBe('billing.md:1-3');
    const err = await kb.search('invoices', { mode: 'vector' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KnowledgeError);
    expect((err as KnowledgeError).kind).toBe('no_embedder');
    expect((err as KnowledgeError).message).toMatch(/no embedder/);
  });

  it('reports a document that fails to load and keeps going; refuses a different embedder on the same index', async () => {
    await writeFile(join(root, 'broken.json'), '{ nope');
    const store = new MemoryKnowledgeStore();
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], embedder: embedder(), store });
    const report = await kb.ingest();
    expect(report.added).toHaveLength(4);
    expect(report.failed.map((e) => e.uri)).toEqual(['broken.json']);
    const other = createKnowledgeBase({
      name: 'docs',
      sources: [directorySource({ path: root })],
      embedder: embedder('another-model'),
      store,
    });
    const err = await other.ingest().catch((e: unknown) => e);
    expect((err as KnowledgeError).kind).toBe('embedder_mismatch');
    expect((err as KnowledgeError).message).toContain('re-index');
  });

  it('gives an agent the search_knowledge tool, whose results carry citations', async () => {
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], embedder: embedder() });
    await kb.ingest();
    const model = new ScriptedModel([
      { toolCalls: [{ toolName: 'search_knowledge', input: { query: 'rotate API key', topK: 2 } }] },
      { text: 'Create a new key, deploy it, revoke the old one (security.md:1-5).' },
    ]);
    const agent = new Agent({ name: 'helper', model, tools: [kb.asTool()] });
    const result = await agent.run('How do I rotate a key?');
    expect(result.text).toContain('security.md:1-5');
    const output = result.steps[0].toolResults[0].output as { results: Array<{ citation: string; text: string; headings?: string[] }> };
    expect(output.results).toHaveLength(2);
    expect(output.results[0]).toMatchObject({ citation: 'security.md:1-5', headings: ['Security', 'Rotating API keys'] });
    expect(model.calls[0].tools?.[0]).toMatchObject({ name: 'search_knowledge' });
    expect(JSON.stringify(model.calls[1].prompt)).toContain('security.md:1-5');
  });

  it('fails an ingest whose folder is missing without deleting anything', async () => {
    const store = new MemoryKnowledgeStore();
    await createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], store }).ingest();
    const gone = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: join(root, 'missing') })], store });
    const err = await gone.ingest().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KnowledgeError);
    expect((err as KnowledgeError).message).toMatch(/Cannot read the folder .*missing/);
    expect((await gone.stats()).documents).toBe(4);
  });

  it('embeds every document when a keyword-only index gets an embedder', async () => {
    const store = new MemoryKnowledgeStore();
    await createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], store }).ingest();
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })], store, embedder: embedder() });
    const report = await kb.ingest();
    expect(report.updated).toHaveLength(4);
    expect(report.embedded).toBe(report.chunks);
    expect((await kb.search('rotate an API key', { mode: 'vector' }))[0].citation).toBe('security.md:1-5');
  });

  it('indexes documents from a custom source and cites URL documents by heading', async () => {
    const text = '# Guide\n\nIntro.\n\n## Install\n\nRun npm install corvid.\n';
    const web: KnowledgeSource = {
      name: 'web',
      async *list() {
        yield {
          uri: 'https://docs.example.com/guide',
          source: 'web',
          title: 'Guide',
          text,
          contentHash: sha256(text),
          metadata: { format: 'markdown' },
        };
      },
    };
    const kb = createKnowledgeBase({ name: 'web', sources: [web] });
    expect((await kb.ingest()).added).toEqual(['https://docs.example.com/guide']);
    expect((await kb.search('npm install'))[0].citation).toBe('https://docs.example.com/guide#Install');
  });

  it('stops an ingest when its signal is aborted', async () => {
    const controller = new AbortController();
    const kb = createKnowledgeBase({ name: 'docs', sources: [directorySource({ path: root })] });
    const err = await kb
      .ingest({ onProgress: (p) => p.done === 1 && controller.abort(new Error('stop now')), signal: controller.signal })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('stop now');
  });
});
