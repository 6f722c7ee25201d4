import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadRuntime } from '../../src/runtime/index.js';
import { openStore, StorageError } from '../../src/storage/index.js';
import { lines, tempDir } from '../config/temp-dir.js';

const AGENT = ['agents:', '  helper: { model: "openai:gpt-4.1-mini", instructions: Help. }'];
const POSTGRES_URL = process.env.CORVID_TEST_POSTGRES_URL;

async function runtimeIn(yaml: string[]) {
  const cwd = tempDir({ 'corvid.yaml': lines(...yaml) });
  return { cwd, runtime: await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false }) };
}

describe('runtime.store()', () => {
  it('never touches the disk when nobody asks for the store', async () => {
    const { cwd, runtime } = await runtimeIn(AGENT);
    expect(runtime.agent().name).toBe('helper');
    await runtime.close();
    expect(readdirSync(cwd)).toEqual(['corvid.yaml']);
  });

  it('opens SQLite at ./.corvid/corvid.db under the runtime cwd on first use, cached, closed by close()', async () => {
    const { cwd, runtime } = await runtimeIn(AGENT);
    const store = await runtime.store();
    expect(await runtime.store()).toBe(store);
    expect(store.info).toMatchObject({ driver: 'sqlite', location: join(cwd, '.corvid', 'corvid.db') });
    expect(existsSync(join(cwd, '.corvid', 'corvid.db'))).toBe(true);
    const session = await store.sessions.create({ agent: 'helper' });
    await runtime.close();
    await runtime.close();
    await expect(store.sessions.get(session.id)).rejects.toThrow(/closed/);
    await expect(runtime.store()).rejects.toThrow(/closed/);
    // Durable: a new runtime in the same directory sees the session.
    const again = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false });
    expect((await (await again.store()).sessions.get(session.id))?.agent).toBe('helper');
    await again.close();
  });

  it('opens concurrent first calls once', async () => {
    const { runtime } = await runtimeIn(AGENT);
    const [a, b] = await Promise.all([runtime.store(), runtime.store()]);
    expect(a).toBe(b);
    await runtime.close();
  });

  it('uses storage.path relative to the working directory', async () => {
    const { cwd, runtime } = await runtimeIn(['storage: { path: data/app.db }', ...AGENT]);
    expect((await runtime.store()).info.location).toBe(join(cwd, 'data', 'app.db'));
    expect(existsSync(join(cwd, 'data', 'app.db'))).toBe(true);
    await runtime.close();
  });

  it('resolves a sqlite: url against the working directory too', async () => {
    const { cwd, runtime } = await runtimeIn(['storage: { url: "sqlite:db/x.db" }', ...AGENT]);
    expect((await runtime.store()).info.location).toBe(join(cwd, 'db', 'x.db'));
    await runtime.close();
  });

  it('uses the memory driver without creating files', async () => {
    const { cwd, runtime } = await runtimeIn(['storage: { driver: memory }', ...AGENT]);
    const store = await runtime.store();
    expect(store.info.driver).toBe('memory');
    await store.memories.save({ userId: 'u', agent: 'helper' }, { key: 'k', value: 'v' });
    expect((await store.memories.get({ userId: 'u', agent: 'helper' }, 'k'))?.value).toBe('v');
    await runtime.close();
    expect(readdirSync(cwd)).toEqual(['corvid.yaml']);
  });

  it('returns an injected store and leaves it open on close()', async () => {
    const cwd = tempDir({ 'corvid.yaml': lines(...AGENT) });
    const injected = await openStore({ driver: 'memory' });
    const runtime = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false, store: injected });
    expect(await runtime.store()).toBe(injected);
    await runtime.close();
    expect(await injected.sessions.list()).toMatchObject({ sessions: [] });
    await injected.close();
  });

  it('reports an unopenable store as a StorageError and tries again on the next call', async () => {
    const { cwd, runtime } = await runtimeIn(['storage: { path: corvid.yaml/db.sqlite }', ...AGENT]);
    const err = await runtime.store().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toContain(join(cwd, 'corvid.yaml', 'db.sqlite'));
    await expect(runtime.store()).rejects.toBeInstanceOf(StorageError);
    await runtime.close();
  });

  it.skipIf(!POSTGRES_URL)('opens Postgres from a url with the password from the environment', async () => {
    const url = new URL(POSTGRES_URL!);
    const password = url.password;
    url.password = '';
    const withVar = password ? url.toString().replace(`${url.username}@`, `${url.username}:\${PGPASS}@`) : url.toString();
    const cwd = tempDir({ 'corvid.yaml': lines(`storage: { url: "${withVar}", schema: corvid_runtime_test, pool_size: 2 }`, ...AGENT) });
    const runtime = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test', PGPASS: password }, dotenv: false });
    const store = await runtime.store();
    expect(store.info.driver).toBe('postgres');
    expect(store.info.location).toContain('schema corvid_runtime_test');
    const s = await store.sessions.create({ agent: 'helper' });
    expect((await store.sessions.get(s.id))?.agent).toBe('helper');
    await store.sessions.delete(s.id);
    await runtime.close();
  });
});

if (!POSTGRES_URL) console.log('[runtime] Postgres store test skipped: CORVID_TEST_POSTGRES_URL is not set');
