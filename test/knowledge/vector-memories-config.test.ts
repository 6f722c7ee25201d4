/**
 * `storage: { embedder }` in corvid.yaml: `corvid memories search` (the built CLI) and the
 * runtime's store (what `search_memories` uses) find a paraphrase that keyword search misses;
 * `corvid validate` names an unknown embedder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadRuntime } from '../../src/runtime/index.js';
import { assertBuilt, corvidIn } from '../cli/cli-harness.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const SYNONYMS = { beverage: 'drink', favourite: 'preferred', morning: 'breakfast' };

let server: FakeEmbeddingsServer;
let dir: string;
beforeAll(async () => {
  assertBuilt();
  server = await startFakeEmbeddingsServer({ synonyms: SYNONYMS });
  dir = mkdtempSync(join(tmpdir(), 'corvid-vector-memories-cli-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = (embedder: string) => `embedders:
  small: { provider: openai, model: fake-embed, base_url: ${server.baseURL}, api_key: test }
storage: { driver: sqlite, path: ./.corvid/corvid.db, embedder: ${embedder} }
agents:
  helper:
    model: "openai:gpt-4.1-mini"
    tools: [search_memories]
`;

const corvid = (...args: string[]) => corvidIn(dir, ...args);

describe('vector memories from corvid.yaml (storage.embedder)', () => {
  it('corvid memories search and the runtime store find a paraphrase; keyword-only storage does not', async () => {
    writeFileSync(join(dir, 'corvid.yaml'), config('small'));
    writeFileSync(
      join(dir, 'memories.json'),
      JSON.stringify({ 'preferred-drink': { value: 'Black coffee at breakfast' }, editor: { value: 'Uses vim' } }),
    );
    expect((await corvid('memories', 'import', 'memories.json', '--agent', 'helper')).code).toBe(0);

    const found = await corvid('memories', 'search', 'favourite morning beverage', '--agent', 'helper');
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('preferred-drink');
    expect(found.stdout).toContain('Black coffee at breakfast');
    expect(found.stdout).not.toContain('editor');
    expect(server.requests.some((r) => r.model === 'fake-embed')).toBe(true);

    const runtime = await loadRuntime({ configPath: join(dir, 'corvid.yaml'), cwd: dir });
    try {
      const store = await runtime.store();
      const hits = await store.memories.search({ userId: 'default', agent: 'helper' }, 'favourite morning beverage');
      expect(hits.map((h) => h.memory.key)).toEqual(['preferred-drink']);
    } finally {
      await runtime.close();
    }

    writeFileSync(join(dir, 'corvid.yaml'), config('small').replace(', embedder: small', ''));
    const keyword = await corvid('memories', 'search', 'favourite morning beverage', '--agent', 'helper');
    expect(keyword.stdout).not.toContain('preferred-drink');
  }, 60_000); // three CLI processes and a runtime

  it('validate names an unknown embedder', async () => {
    writeFileSync(join(dir, 'corvid.yaml'), config('large'));
    const r = await corvid('validate');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('storage.embedder: unknown embedder "large"; define it under embedders (defined: "small")');
  });
});
