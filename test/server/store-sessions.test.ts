import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { openStore } from '../../src/storage/open-store.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, scriptedAgent, startServer } from './helpers.js';

describe('chat sessions in the configured store (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-serve-store-'));
  const path = join(dir, 'corvid.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A server whose runtime has `storage:` (SQLite at `path`); answering every turn. */
  async function start() {
    const store: Store = await openStore({ driver: 'sqlite', path });
    const agent = scriptedAgent('counter', async () => ({ text: 'counted' }));
    const runtime = {
      ...runtimeOf([agent], {
        config: { storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' } },
      }),
      store: async () => store,
    };
    const started = await startServer([], { runtime });
    return { ...started, store };
  }

  it('keeps sessions across a restart: history, listing, deletion', async () => {
    let { server, url, store } = await start();
    const first = await (await chat(url, 'counter', { message: 'remember me', userId: 'ann' })).json();
    expect(first.sessionId).toMatch(/\S/);
    await server.close();
    await store.close();

    ({ server, url, store } = await start());
    try {
      const second = await chat(url, 'counter', { message: 'do you remember?', sessionId: first.sessionId });
      expect(second.status).toBe(200);
      const session = await (await fetch(`${url}/api/v1/sessions/${first.sessionId}`)).json();
      expect(session).toMatchObject({ id: first.sessionId, agent: 'counter', userId: 'ann' });
      expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(session.messages[0].content[0].text).toBe('remember me');
      expect(await store.sessions.messages(first.sessionId)).toHaveLength(4);
      const list = await (await fetch(`${url}/api/v1/sessions?userId=ann`)).json();
      expect(list.sessions.map((s: { id: string }) => s.id)).toEqual([first.sessionId]);
      expect((await fetch(`${url}/api/v1/sessions/${first.sessionId}`, { method: 'DELETE' })).status).toBe(204);
      expect(await store.sessions.get(first.sessionId)).toBeUndefined();
      expect((await chat(url, 'counter', { message: 'x', sessionId: first.sessionId })).status).toBe(404);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
