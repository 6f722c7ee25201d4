import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

import { openStore, SCHEMA_VERSION } from '../../src/storage/index.js';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'corvid-golden-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOLDEN_ROWS = readFileSync(new URL('./fixtures/sqlite-v1.sql', import.meta.url), 'utf8');

/** A database exactly as schema version 1 left it (its migration only), holding the golden rows. */
function versionOneDatabase(path: string): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.transaction(() => {
      db.exec('CREATE TABLE corvid_schema (version INTEGER NOT NULL PRIMARY KEY, name VARCHAR(191) NOT NULL, applied_at BIGINT NOT NULL)');
      const [v1] = SQLITE_MIGRATIONS;
      expect(v1.version).toBe(1);
      for (const statement of v1.statements) db.exec(statement);
      db.prepare('INSERT INTO corvid_schema (version, name, applied_at) VALUES (1, ?, 1893456000000)').run(v1.name);
      db.exec(GOLDEN_ROWS);
    })();
  } finally {
    db.close();
  }
}

describe('stored format, schema version 1 (golden rows)', () => {
  it('reads rows written by schema version 1', async () => {
    const path = join(dir, 'v1.db');
    await (await openStore({ path })).close();
    const db = new Database(path);
    db.exec(GOLDEN_ROWS);
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
    expect(await store.approvals.listPending({ sessionId: 'ses_golden' })).toMatchObject([
      { id: 'apr_g', toolCallId: 'c1', args: { order: 42 }, prompt: 'Refund order 42?' },
    ]);
    await store.close();
  });

  it('migrates a version-1 database to the current version, the golden rows intact, counters, leases and background runs working', async () => {
    const path = join(dir, 'v1-migrated.db');
    versionOneDatabase(path);
    const store = await openStore({ path });
    try {
      expect(store.info.schemaVersion).toBe(SCHEMA_VERSION);
      expect(SCHEMA_VERSION).toBe(3);
      expect((await store.sessions.get('ses_golden'))?.lastSeq).toBe(3);
      expect((await store.sessions.entries('ses_golden')).map((e) => e.type)).toEqual(['message', 'message', 'handoff']);
      expect((await store.conversations.search('refund'))[0]).toMatchObject({ sessionId: 'ses_golden', seq: 1 });
      expect((await store.memories.search({ userId: 'u_1', agent: 'support' }, 'vegetarian'))[0].memory.key).toBe('diet');
      expect(await store.approvals.listPending({ sessionId: 'ses_golden' })).toMatchObject([{ id: 'apr_g' }]);
      expect((await store.counters.add('rate:u_1', 3, 60_000)).total).toBe(3);
      expect((await store.counters.add('rate:u_1', 2, 60_000)).total).toBe(5);
      expect(await store.leases.acquire('resume:run_g', 'instance-1', 30_000)).toBe(true);
      expect(await store.leases.acquire('resume:run_g', 'instance-2', 30_000)).toBe(false);
      await store.backgroundRuns.create({ runId: 'run_bg', agent: 'support', input: 'hi' });
      await store.runEvents.append('run_bg', [{ seq: 1, type: 'run_start', data: {} }]);
      expect(await store.runEvents.lastSeq('run_bg')).toBe(1);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT version, name FROM corvid_schema ORDER BY version').all()).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'counters and leases' },
      { version: 3, name: 'background runs and run events' },
    ]);
    db.close();
    // Opening again migrates nothing more.
    await (await openStore({ path })).close();
  });
});
