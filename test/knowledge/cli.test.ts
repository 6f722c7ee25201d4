/**
 * `knowledge:` and `embedders:` in corvid.yaml, end to end: the built CLI (`corvid ingest`,
 * `search`, `knowledge list|stats|drop`, `validate`) on a temporary folder, and a YAML agent
 * calling `search_knowledge` through `loadRuntime`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadRuntime } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { assertBuilt, corvidIn } from '../cli/cli-harness.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const dirs: string[] = [];
let server: FakeEmbeddingsServer | undefined;
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await server?.close();
  server = undefined;
});

beforeAll(() => assertBuilt());

const KEYWORD_CONFIG = `knowledge:
  docs:
    sources:
      - { type: directory, path: ./docs, include: ["**/*.md"], exclude: ["drafts/**"] }
    chunking: { strategy: markdown, size: 200, overlap: 20 }
    search: { mode: keyword, top_k: 3 }
agents:
  helper:
    model: "openai:gpt-4.1-mini"
    knowledge: [docs]
`;

/** A project folder: corvid.yaml and docs/*.md (one draft that must stay out). */
function project(config = KEYWORD_CONFIG): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-cli-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'docs', 'drafts'), { recursive: true });
  writeFileSync(join(dir, 'corvid.yaml'), config);
  writeFileSync(
    join(dir, 'docs', 'deploy.md'),
    '# Deploy\n\nRun the rollout script to deploy the service.\n\n## Rollback\n\nUse the rollback command when a deploy fails.\n',
  );
  writeFileSync(join(dir, 'docs', 'keys.md'), '# Keys\n\nRotate API keys every ninety days with the vault.\n');
  writeFileSync(join(dir, 'docs', 'drafts', 'secret.md'), '# Draft\n\nRotate nothing yet: unpublished plans.\n');
  return dir;
}

const corvid = (dir: string, ...args: string[]) => corvidIn(dir, ...args);

describe('corvid ingest / search / knowledge (keyword mode)', () => {
  it('reads nothing and creates nothing before the first ingest', async () => {
    const dir = project();
    const search = await corvid(dir, 'search', 'rotate');
    expect(search.code).toBe(0);
    expect(search.stderr).toContain('docs: not indexed yet');
    const list = await corvid(dir, 'knowledge', 'list');
    expect(list.stdout).toContain('docs  not indexed');
    expect(existsSync(join(dir, '.corvid'))).toBe(false);
  });

  it('ingests, searches with citations, re-indexes only a changed document, forgets a deleted one', async () => {
    const dir = project();
    const first = await corvid(dir, 'ingest');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('docs: added deploy.md');
    expect(first.stdout).toContain('docs: added keys.md');
    expect(first.stdout).toMatch(
      /docs: 2 documents read — 2 added, 0 updated, 0 unchanged, 0 deleted, 0 failed; 3 chunks written, 0 embedded/,
    );
    expect(first.stdout).not.toContain('secret.md');
    expect(existsSync(join(dir, '.corvid', 'corvid.db'))).toBe(true);

    const hits = await corvid(dir, 'search', 'rotate', 'keys');
    expect(hits.code).toBe(0);
    expect(hits.stdout).toMatch(/^keys\.md:1-3 {2}score [\d.]+\n {2}# Keys\n {2}Rotate API keys every ninety days/);
    const json = JSON.parse((await corvid(dir, 'search', 'rollback', '--json')).stdout) as Array<{ citation: string; uri: string }>;
    expect(json[0]).toMatchObject({ uri: 'deploy.md', citation: expect.stringMatching(/^deploy\.md:\d+-\d+$/) });

    writeFileSync(join(dir, 'docs', 'keys.md'), '# Keys\n\nRotate secrets monthly with the vault.\n');
    const second = await corvid(dir, 'ingest');
    expect(second.stdout).toContain('docs: updated keys.md');
    expect(second.stdout).not.toContain('deploy.md');
    expect(second.stdout).toContain('0 added, 1 updated, 1 unchanged, 0 deleted, 0 failed; 1 chunks written');
    expect((await corvid(dir, 'search', 'monthly')).stdout).toContain('keys.md:1-3');

    unlinkSync(join(dir, 'docs', 'deploy.md'));
    const third = await corvid(dir, 'ingest', 'docs');
    expect(third.stdout).toContain('docs: deleted deploy.md');
    expect(third.stdout).toContain('1 deleted');
    const gone = await corvid(dir, 'search', 'rollback');
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain('docs: no matches');

    const stats = await corvid(dir, 'knowledge', 'stats', 'docs', '--json');
    expect(JSON.parse(stats.stdout)).toMatchObject({ name: 'docs', indexed: true, documents: 1, chunks: 1 });
    expect((await corvid(dir, 'knowledge', 'list')).stdout).toContain('docs  1 documents, 1 chunks, embedder none (keyword only)');
    const drop = await corvid(dir, 'knowledge', 'drop', 'docs');
    expect(drop.code).toBe(0);
    expect(drop.stdout).toContain('Dropped "docs" (1 documents)');
    expect((await corvid(dir, 'knowledge', 'list')).stdout).toContain('docs  not indexed');
    expect((await corvid(dir, 'knowledge', 'drop', 'docs')).code).toBe(1);
  }, 60_000); // eight CLI processes

  it('exits 1 when a source cannot be read at all, and 2 on bad usage', async () => {
    const dir = project(KEYWORD_CONFIG.replace('./docs', './missing'));
    const r = await corvid(dir, 'ingest');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('docs: ingest failed');
    expect(r.stderr).toContain('Cannot read the folder');
    expect((await corvid(dir, 'search', 'x', '--mode', 'fuzzy')).code).toBe(2);
    const unknown = await corvid(dir, 'ingest', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown knowledge base "nope"; configured: docs');
  });

  it('says that knowledge does not support MySQL storage, and which storage does', async () => {
    const dir = project(`${KEYWORD_CONFIG}storage: { url: "mysql://app@127.0.0.1:1/app" }\n`);
    const r = await corvid(dir, 'ingest');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Knowledge bases do not support MySQL storage: this config's storage is mysql");
    expect(r.stderr).toContain('driver: postgres');
  });

  it('has help for each command', async () => {
    const dir = project();
    expect((await corvid(dir, 'ingest', '--help')).stdout).toContain('Usage: corvid ingest [name]');
    expect((await corvid(dir, 'search', '--help')).stdout).toContain('--mode <mode>');
    expect((await corvid(dir, 'knowledge', '--help')).stdout).toContain('corvid knowledge drop <name>');
  });

  it('validate reports unknown knowledge bases and embedders with their paths', async () => {
    const dir = project(`embedders:
  small: { provider: openai, model: text-embedding-3-small }
knowledge:
  docs:
    sources: [{ type: directory, path: ./docs }]
    embedder: large
agents:
  helper:
    model: "openai:gpt-4.1-mini"
    knowledge: [docs, manuals]
`);
    const r = await corvid(dir, 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain(
      'knowledge.docs.embedder: unknown embedder "large"; define it under embedders (defined: "small")',
    );
    expect(r.stderr + r.stdout).toContain('agents.helper.knowledge[1]: unknown knowledge base "manuals"');
  });
});

describe('knowledge in a YAML runtime', () => {
  it('gives the agent search_knowledge over its knowledge base', async () => {
    const dir = project();
    expect((await corvid(dir, 'ingest')).code).toBe(0);
    const runtime = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    try {
      const model = new ScriptedModel([
        { toolCalls: [{ toolName: 'search_knowledge', input: { query: 'rotate keys' } }] },
        { text: 'Every ninety days (keys.md:1-3).' },
      ]);
      runtime.agent('helper').setModel(model);
      const result = await runtime.agent('helper').run('How often are keys rotated?');
      expect(model.calls[0].tools?.map((t) => t.name)).toEqual(['search_knowledge']);
      const output = result.steps[0].toolResults[0].output as { results: Array<{ citation: string; text: string }> };
      expect(output.results[0]).toMatchObject({ citation: 'keys.md:1-3', text: expect.stringContaining('ninety days') });
    } finally {
      await runtime.close();
    }
  });

  it('embeds with an embedders: entry (fake OpenAI embeddings server); an agent with two bases gets search_<name> tools', async () => {
    server = await startFakeEmbeddingsServer();
    const dir = project(`embedders:
  e: { provider: openai, model: fake-embed, base_url: ${server.baseURL}, api_key: test }
knowledge:
  docs:
    sources: [{ type: directory, path: ./docs, include: ["*.md"] }]
    embedder: e
  notes:
    sources: [{ type: directory, path: ./docs/drafts }]
agents:
  helper:
    model: "openai:gpt-4.1-mini"
    knowledge: [docs, notes]
`);
    const printed = await corvid(dir, 'validate', '--print-config');
    expect(printed.stdout).toContain('fake-embed');
    expect(printed.stdout).toContain('api_key: "***"');
    expect(printed.stdout).toMatch(/chunking:|sources:/);
    const ingest = await corvid(dir, 'ingest');
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(/docs: 2 documents read — 2 added.*; \d+ chunks written, [1-9]\d* embedded/);
    expect(ingest.stdout).toContain('notes: 1 document read — 1 added');
    expect(server.requests.every((r) => r.model === 'fake-embed')).toBe(true);
    const vector = await corvid(
      dir,
      'search',
      'rollback',
      'command',
      'deploy',
      'fails',
      '--knowledge',
      'docs',
      '--mode',
      'vector',
      '--top-k',
      '1',
    );
    expect(vector.code).toBe(0);
    expect(vector.stdout).toMatch(/^deploy\.md:\d+-\d+ {2}score/);
    expect((await corvid(dir, 'knowledge', 'stats', 'docs')).stdout).toContain('embedder fake-embed (64 dims)');

    const runtime = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    try {
      const model = new ScriptedModel([
        { toolCalls: [{ toolName: 'search_notes', input: { query: 'unpublished plans' } }] },
        { text: 'done' },
      ]);
      runtime.agent('helper').setModel(model);
      const result = await runtime.agent('helper').run('Any plans?');
      expect(model.calls[0].tools?.map((t) => t.name).sort()).toEqual(['search_docs', 'search_notes']);
      const output = result.steps[0].toolResults[0].output as { results: Array<{ citation: string }> };
      expect(output.results[0].citation).toMatch(/^secret\.md:/);
    } finally {
      await runtime.close();
    }
  });
});
