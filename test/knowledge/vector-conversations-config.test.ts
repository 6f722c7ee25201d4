/**
 * `storage: { embedder }` in corvid.yaml gives conversation search a vector side: messages that
 * the runtime's store appends are embedded, `corvid sessions search` (the built CLI) finds a
 * paraphrase (also of messages stored without the embedder), `--mode keyword` does not, and
 * `corvid sessions delete` removes the session's vectors. Without an embedder, vector mode is
 * refused with the fix.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { openStore } from '../../src/storage/index.js';
import { assertBuilt, corvidIn } from '../cli/cli-harness.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const SYNONYMS = { beverage: 'drink', favourite: 'preferred', morning: 'breakfast' };

let server: FakeEmbeddingsServer;
let dir: string;
beforeAll(async () => {
  assertBuilt();
  server = await startFakeEmbeddingsServer({ synonyms: SYNONYMS });
  dir = mkdtempSync(join(tmpdir(), 'corvid-vector-conversations-cli-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = (embedder?: string) => `embedders:
  small: { provider: openai, model: fake-embed, base_url: ${server.baseURL}, api_key: test }
storage: { driver: sqlite, path: ./.corvid/corvid.db${embedder ? `, embedder: ${embedder}` : ''} }
agents:
  helper:
    model: "openai:gpt-4.1-mini"
    tools: [search_conversations]
`;

const corvid = (...args: string[]) => corvidIn(dir, ...args);

const text = (t: string) => ({ message: { role: 'user' as const, content: [{ type: 'text' as const, text: t }] }, agent: 'helper' });

describe('vector conversation search from corvid.yaml (storage.embedder)', () => {
  it('corvid sessions search finds a paraphrase; keyword mode does not; delete removes the vectors', async () => {
    writeFileSync(join(dir, 'corvid.yaml'), config('small'));
    const runtime = await loadRuntime({ configPath: join(dir, 'corvid.yaml'), cwd: dir });
    try {
      const store = await runtime.store();
      await store.sessions.create({ id: 'chat-1', agent: 'helper', userId: 'ada' });
      await store.sessions.append('chat-1', text('My preferred drink is black coffee at breakfast'));
      await store.sessions.append('chat-1', text('Deploy the service on Friday'));
    } finally {
      await runtime.close(); // waits for the embeddings
    }
    expect(server.requests.flatMap((r) => r.input)).toContain('My preferred drink is black coffee at breakfast');
    // Stored by a process without the embedder: embedded at the first vector search.
    const plain = await openStore({ driver: 'sqlite', path: join(dir, '.corvid', 'corvid.db') });
    await plain.sessions.create({ id: 'chat-2', agent: 'helper', userId: 'bob' });
    await plain.sessions.append('chat-2', text('A preferred drink at breakfast: green tea'));
    await plain.close();

    const found = await corvid('sessions', 'search', 'favourite morning beverage');
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('chat-1 #1');
    expect(found.stdout).toContain('My preferred drink is black coffee at breakfast');
    expect(found.stdout).toContain('chat-2 #1');
    expect(found.stdout).not.toContain('Deploy');
    const json = await corvid('sessions', 'search', 'favourite morning beverage', '--user', 'ada', '--mode', 'vector', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject([{ sessionId: 'chat-1', seq: 1, role: 'user', agent: 'helper' }]);
    const keyword = await corvid('sessions', 'search', 'favourite morning beverage', '--mode', 'keyword');
    expect(keyword.code).toBe(0);
    expect(keyword.stderr).toContain('No messages match "favourite morning beverage"');

    expect((await corvid('sessions', 'delete', 'chat-1', '--yes')).code).toBe(0);
    const knowledge = await openSqliteKnowledgeStore({ path: join(dir, '.corvid', 'corvid.db') });
    try {
      const uris = [...(await (await knowledge.openIndex('_conversations')).documentHashes()).keys()];
      expect(uris.some((u) => u.startsWith('chat-2/'))).toBe(true);
      expect(uris.filter((u) => u.startsWith('chat-1/'))).toEqual([]);
    } finally {
      await knowledge.close();
    }
    expect((await corvid('sessions', 'search', 'favourite morning beverage')).stdout).not.toContain('chat-1');
  }, 90_000); // several CLI processes and a runtime

  it('an embedder that is down does not lose the message: a warning says so once, keyword search finds it', async () => {
    writeFileSync(join(dir, 'corvid.yaml'), config('small').replace(server.baseURL, 'http://127.0.0.1:9/v1'));
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on('warning', onWarning);
    const runtime = await loadRuntime({ configPath: join(dir, 'corvid.yaml'), cwd: dir });
    try {
      const store = await runtime.store();
      await store.sessions.create({ id: 'chat-down', agent: 'helper' });
      await store.sessions.append('chat-down', text('The invoice for March is overdue'));
      await store.sessions.append('chat-down', text('The invoice for April is paid'));
      const found = await store.conversations.search('invoice overdue', { mode: 'keyword' });
      expect(found[0]).toMatchObject({ sessionId: 'chat-down', seq: 1, snippet: expect.stringContaining('March is overdue') });
    } finally {
      await runtime.close(); // waits for the failed embeddings
      process.off('warning', onWarning);
    }
    const ours = warnings.filter((w) => w.includes('Embedding conversation messages'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toContain('"small" failed');
    expect(ours[0]).toContain('found by keyword search');
  }, 60_000);

  it('refuses vector mode without storage.embedder, saying how to get it', async () => {
    writeFileSync(join(dir, 'corvid.yaml'), config());
    const r = await corvid('sessions', 'search', 'coffee', '--mode', 'vector');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Conversation search mode "vector" needs an embedder: set storage.embedder in corvid.yaml');
    const bad = await corvid('sessions', 'search', 'coffee', '--mode', 'fuzzy');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mode must be keyword, vector or hybrid, not "fuzzy"');
    expect((await corvid('sessions', '--help')).stdout).toContain('corvid sessions search <query> [--mode <mode>]');
  }, 60_000);
});
