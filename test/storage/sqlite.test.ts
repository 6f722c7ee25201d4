import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

import { openStore, SCHEMA_VERSION } from '../../src/storage/index.js';
import { resolveDriver, sqlitePath } from '../../src/storage/shared/location.js';
import { expectCode } from './conformance/expect-error.js';
import { storeConformance } from './store-conformance.js';
import { schemaCases, sweepCases, verifyTotalOrder } from './support/driver-cases.js';
import { sqliteTarget } from './support/targets.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST_STORAGE = join(ROOT, 'dist', 'storage', 'index.js');
const WORKER = fileURLToPath(new URL('./fixtures/append-worker.mjs', import.meta.url));

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-sqlite-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

storeConformance(sqliteTarget);
schemaCases(sqliteTarget, async (options) => hash(options.path!));
sweepCases(sqliteTarget);

describe('sqlite store', () => {
  it('creates the file and its directories on first use, in WAL mode', async () => {
    const path = join(tempDir(), 'a', 'b', 'corvid.db');
    const store = await openStore({ path });
    expect(store.info).toEqual({ driver: 'sqlite', location: path, schemaVersion: SCHEMA_VERSION });
    expect(existsSync(path)).toBe(true);
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('defaults to ./.corvid/corvid.db and infers drivers from URLs', () => {
    expect(sqlitePath({})).toBe('./.corvid/corvid.db');
    expect(sqlitePath({ url: 'sqlite:///var/db/x.db' })).toBe('/var/db/x.db');
    expect(sqlitePath({ url: 'sqlite:./rel.db' })).toBe('./rel.db');
    expect(() => sqlitePath({ url: 'postgres://u:pw@h/db' })).toThrow(/sqlite:<path> URL, not postgres:\/\/u:\*\*\*@h\/db/);
    expect(resolveDriver({})).toBe('sqlite');
    expect(resolveDriver({ url: 'postgresql://h/db' })).toBe('postgres');
    expect(resolveDriver({ url: 'mariadb://h/db' })).toBe('mysql');
    expect(resolveDriver({ url: 'file:x.db' })).toBe('sqlite');
    expect(resolveDriver({ url: 'memory:' })).toBe('memory');
    expect(() => resolveDriver({ url: 'redis://h' })).toThrow(/Cannot tell the storage driver/);
    expect(() => resolveDriver({ driver: 'oracle' as never })).toThrow(/Unknown storage driver/);
  });

  it('refuses a file that is not a SQLite database, naming it, without touching it', async () => {
    const path = join(tempDir(), 'corvid.db');
    writeFileSync(path, 'This is a text file, certainly not a database.\n'.repeat(200));
    const before = hash(path);
    await expectCode(openStore({ path }), 'storage_corrupt', path, 'not a valid SQLite database');
    expect(hash(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('waits for a lock held by another connection, then fails with a clear error', async () => {
    const path = join(tempDir(), 'corvid.db');
    const store = await openStore({ path, busyTimeoutMs: 150 });
    const { id } = await store.sessions.create({ agent: 'a' });
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const started = Date.now();
      await expectCode(store.sessions.append(id, { type: 'x' }), 'storage_locked', path, 'waited 150 ms');
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      await expectCode(openStore({ path, busyTimeoutMs: 100 }), 'storage_locked', path);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await store.sessions.append(id, { type: 'x' })).toBe(1);
    await store.close();
  });

  it('refuses use after close', async () => {
    const store = await openStore({ path: join(tempDir(), 'c.db') });
    await store.close();
    await store.close();
    await expectCode(store.sessions.list(), 'storage_error', 'closed');
  });

  it('supports a private in-memory database', async () => {
    const store = await openStore({ path: ':memory:' });
    const { id } = await store.sessions.create({ agent: 'a' });
    expect(await store.sessions.append(id, { type: 't' })).toBe(1);
    await store.close();
  });

  it('keeps a total order when two processes append to one session at once', async () => {
    if (!existsSync(DIST_STORAGE)) throw new Error(`${DIST_STORAGE} is missing: run "npm run build" first (npm test does it)`);
    const path = join(tempDir(), 'shared.db');
    const store = await openStore({ path });
    const { id } = await store.sessions.create({ agent: 'a' });
    const perWriter = 1000;
    const workers = [0, 1].map((w) => {
      const child = spawn(process.execPath, [WORKER, DIST_STORAGE, path, id, String(w), String(perWriter)], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => out.includes('ready') && resolve());
        child.on('exit', () => reject(new Error(`worker ${w} exited early: ${err}`)));
      });
      const done = new Promise<void>((resolve, reject) =>
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${w} failed (${code}): ${err}`)))),
      );
      return { child, ready, done };
    });
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.child.stdin.write('go\n');
    await Promise.all(workers.map((w) => w.done));
    await verifyTotalOrder(store, id, 2, perWriter);
    const entries = await store.sessions.entries(id);
    const switches = entries.filter((e, i) => i > 0 && e.agent !== entries[i - 1].agent).length;
    console.log(`[storage] sqlite: 2 processes appended ${entries.length} entries, writers interleaved ${switches} times`);
    expect(switches, 'the two writers should interleave').toBeGreaterThan(0);
    await store.close();
    expect(statSync(path).size).toBeGreaterThan(0);
  }, 60_000);
});
