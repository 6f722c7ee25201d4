import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/storage/index.js';

const dir = mkdtempSync(join(tmpdir(), 'corvid-golden-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stored format, schema version 1 (golden rows)', () => {
  it('reads rows written by schema version 1', async () => {
    const path = join(dir, 'v1.db');
    await (await openStore({ path })).close();
    const db = new Database(path);
    db.exec(readFileSync(new URL('./fixtures/sqlite-v1.sql', import.meta.url), 'utf8'));
    db.close();

    const store = await openStore({ path });
    expect(await store.sessions.get('ses_golden')).toEqual({
      id: 'ses_golden',
      agent: 'support',
      activeAgent: 'billing',
      userId: 'u_1',
      metadata: { title: 'Refund' },
      lastSeq: 3,
      createdAt: new Date('2030-01-01T00:00:00Z'),
      updatedAt: new Date('2030-01-01T00:00:05Z'),
    });
    const entries = await store.sessions.entries('ses_golden');
    expect(entries[0].message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Refund order 42' },
        { type: 'file', mediaType: 'image/png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
      ],
    });
    expect(entries[1]).toMatchObject({ seq: 2, agent: 'support', role: 'assistant', runId: 'run_g', usage: { totalTokens: 15 } });
    expect(entries[2]).toMatchObject({ seq: 3, type: 'handoff', data: { to: 'billing', at: new Date('2030-01-01T00:00:03Z') } });
    expect(await store.sessions.append('ses_golden', { type: 'note' })).toBe(4);
    expect((await store.conversations.search('refund'))[0]).toMatchObject({ sessionId: 'ses_golden', seq: 1 });
    expect(await store.state.get({ user: 'u_1' }, 'locale')).toBe('pt-PT');
    expect(await store.memories.get({ userId: 'u_1', agent: 'support' }, 'diet')).toEqual({
      key: 'diet',
      value: 'Vegetarian',
      category: 'food',
      tags: ['diet'],
      importance: 8,
      createdAt: new Date('2030-01-01T00:00:00Z'),
      updatedAt: new Date('2030-01-01T00:00:09Z'),
    });
    expect((await store.memories.search({ userId: 'u_1', agent: 'support' }, 'vegetarian'))[0].memory.key).toBe('diet');
    expect(await store.checkpoints.latest('run_g')).toMatchObject({ seq: 1, status: 'paused', state: { version: 1, step: 1 } });
    expect(await store.approvals.listPending({ sessionId: 'ses_golden' })).toMatchObject([{ id: 'apr_g', toolCallId: 'c1', args: { order: 42 }, prompt: 'Refund order 42?' }]);
    await store.close();
  });
});
