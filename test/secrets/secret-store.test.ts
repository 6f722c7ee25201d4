import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { isSealedText, parseKey, Secret, SecretStore } from '../../src/secrets/index.js';
import { expectCode } from '../storage/conformance/expect-error.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-secrets-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const mode = (file: string) => statSync(file).mode & 0o777;
const NS = 'https://mcp.example.com/sse';

describe('secret store', () => {
  it('generates a key file with mode 0600 and stores secrets in 0600 files, encrypted', async () => {
    const dir = tempDir();
    const store = await SecretStore.open({ dir, env: {} });
    expect(store.keySource).toBe('file');
    const keyFile = join(dir, 'secret.key');
    expect(mode(keyFile)).toBe(0o600);
    expect(parseKey(readFileSync(keyFile, 'utf8'))).toHaveLength(32);
    await store.set(NS, 'oauth', { accessToken: 'tok-SECRET-123', refreshToken: 'r-456' });
    const file = store.fileFor(NS);
    expect(mode(file)).toBe(0o600);
    expect(mode(join(dir, 'secrets'))).toBe(0o700);
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toContain('tok-SECRET-123');
    expect(raw).not.toContain('mcp.example.com');
    expect(JSON.parse(raw)).toMatchObject({ format: 'corvid-secrets', version: 1, algorithm: 'aes-256-gcm' });
    const again = await SecretStore.open({ dir, env: {} });
    expect((await again.get(NS, 'oauth'))?.value).toEqual({ accessToken: 'tok-SECRET-123', refreshToken: 'r-456' });
  });

  it('gets, lists, replaces and deletes per namespace', async () => {
    const store = await SecretStore.open({ dir: tempDir(), env: {} });
    expect(await store.get(NS, 'nope')).toBeUndefined();
    await store.set(NS, 'b', 'two');
    await store.set(NS, 'a', 1);
    await store.set('github', 'token', 'ghp_x');
    expect(await store.list(NS)).toEqual(['a', 'b']);
    await store.set(NS, 'a', { changed: true });
    expect((await store.get(NS, 'a'))?.value).toEqual({ changed: true });
    expect(await store.delete(NS, 'a')).toBe(true);
    expect(await store.delete(NS, 'a')).toBe(false);
    expect(await store.list(NS)).toEqual(['b']);
    expect(await store.delete(NS)).toBe(true);
    expect(existsSync(store.fileFor(NS))).toBe(false);
    expect((await store.get('github', 'token'))?.value).toBe('ghp_x');
    expect(await store.count()).toBe(1);
    await expectCode(store.set('', 'x', 1), 'validation_failed');
  });

  it('keeps every update when many run at once', async () => {
    const store = await SecretStore.open({ dir: tempDir(), env: {} });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(NS, `k${i}`, i)));
    expect((await store.list(NS)).length).toBe(20);
  });

  it('carries an expiry with a refresh buffer', async () => {
    const store = await SecretStore.open({ dir: tempDir(), env: {} });
    const now = Date.now();
    await store.set(NS, 'token', 'abc', { expiresAt: new Date(now + 60_000) });
    const s = (await store.get(NS, 'token'))!;
    expect(s.expiresAt?.getTime()).toBe(now + 60_000);
    expect(s.isExpired(now)).toBe(false);
    expect(s.isExpired(now, 30_000)).toBe(false);
    expect(s.isExpired(now, 60_000)).toBe(true);
    expect(s.isExpired(new Date(now + 61_000))).toBe(true);
    expect(new Secret('x', new Date()).isExpired(Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('writes atomically: no temporary files stay, and an interrupted write leaves the old data', async () => {
    const store = await SecretStore.open({ dir: tempDir(), env: {} });
    await store.set(NS, 'v', 'old');
    const file = store.fileFor(NS);
    // A crash between writing the temporary file and renaming it leaves only the temporary file behind.
    writeFileSync(`${file}.999.deadbeef.tmp`, 'partial garbage');
    expect((await store.get(NS, 'v'))?.value).toBe('old');
    await store.set(NS, 'v', 'new');
    expect((await store.get(NS, 'v'))?.value).toBe('new');
    const leftovers = readdirSync(store.secretsDir).filter((f) => f.startsWith('.') || f.endsWith('.lock'));
    expect(leftovers).toEqual([]);
  });

  it('rejects tampered data with a clear error, never garbage', async () => {
    const store = await SecretStore.open({ dir: tempDir(), env: {} });
    await store.set(NS, 'v', 'value');
    const file = store.fileFor(NS);
    const envelope = JSON.parse(readFileSync(file, 'utf8'));
    const data = Buffer.from(envelope.data, 'base64');
    data[3] ^= 0x01;
    writeFileSync(file, JSON.stringify({ ...envelope, data: data.toString('base64') }));
    await expectCode(store.get(NS, 'v'), 'secret_decrypt_failed', file, 'integrity check');
    await expectCode(store.set(NS, 'other', 1), 'secret_decrypt_failed');
    writeFileSync(file, '{ not json');
    await expectCode(store.get(NS, 'v'), 'secret_decrypt_failed', 'not a Corvid secrets file');
  });

  it('rejects a file moved to another namespace', async () => {
    const store = await SecretStore.open({ dir: tempDir(), env: {} });
    await store.set('a', 'v', 'from a');
    writeFileSync(store.fileFor('b'), readFileSync(store.fileFor('a')));
    await expectCode(store.get('b', 'v'), 'secret_decrypt_failed', 'integrity check');
  });

  it('uses CORVID_SECRET_KEY (hex or base64) and rejects data written with another key', async () => {
    const dir = tempDir();
    const key = randomBytes(32);
    const hex = await SecretStore.open({ dir, env: { CORVID_SECRET_KEY: key.toString('hex') } });
    expect(hex.keySource).toBe('env');
    expect(existsSync(join(dir, 'secret.key'))).toBe(false);
    await hex.set(NS, 'v', 'by env key');
    const b64 = await SecretStore.open({ dir, env: { CORVID_SECRET_KEY: key.toString('base64') } });
    expect((await b64.get(NS, 'v'))?.value).toBe('by env key');
    const other = await SecretStore.open({ dir, env: { CORVID_SECRET_KEY: randomBytes(32).toString('base64') } });
    const error = await expectCode(other.get(NS, 'v'), 'secret_decrypt_failed', 'different key', 'CORVID_SECRET_KEY');
    expect(error.message).not.toContain(key.toString('hex'));
    expect(error.message).not.toContain(key.toString('base64'));
    await expectCode(SecretStore.open({ dir, env: { CORVID_SECRET_KEY: 'too-short' } }), 'secret_key_invalid', 'CORVID_SECRET_KEY');
    await expectCode(SecretStore.open({ dir, key: new Uint8Array(16) }), 'secret_key_invalid');
  });

  it('refuses to generate a new key when encrypted data exists without its key', async () => {
    const dir = tempDir();
    const store = await SecretStore.open({ dir, env: {} });
    await store.set(NS, 'v', 1);
    const keyFile = join(dir, 'secret.key');
    rmSync(keyFile);
    await expectCode(SecretStore.open({ dir, env: {} }), 'secret_key_missing', keyFile, 'CORVID_SECRET_KEY');
    expect(existsSync(keyFile)).toBe(false);
    writeFileSync(keyFile, 'garbage');
    await expectCode(SecretStore.open({ dir, env: {} }), 'secret_key_invalid', keyFile);
  });

  it('seals short texts for storage elsewhere: bound to their context and key, tampering refused', async () => {
    const key = randomBytes(32);
    const store = await SecretStore.open({ key, dir: tempDir() });
    const sealed = store.sealText('tok-SECRET-9', 'push t1/c1');
    expect(isSealedText(sealed)).toBe(true);
    expect(sealed).not.toContain('tok-SECRET-9');
    expect(store.sealText('tok-SECRET-9', 'push t1/c1')).not.toBe(sealed); // a fresh IV each time
    expect((await SecretStore.open({ key, dir: tempDir() })).unsealText(sealed, 'push t1/c1')).toBe('tok-SECRET-9');
    await expectCode(
      Promise.resolve().then(() => store.unsealText(sealed, 'push t2/c1')),
      'secret_decrypt_failed',
      'integrity check',
    );
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    await expectCode(
      Promise.resolve().then(() => store.unsealText(flipped, 'push t1/c1')),
      'secret_decrypt_failed',
      'integrity check',
    );
    const other = await SecretStore.open({ key: randomBytes(32), dir: tempDir() });
    await expectCode(
      Promise.resolve().then(() => other.unsealText(sealed, 'push t1/c1')),
      'secret_decrypt_failed',
      'different key',
      'CORVID_SECRET_KEY',
    );
    await expectCode(
      Promise.resolve().then(() => store.unsealText('clear text', 'push t1/c1')),
      'secret_decrypt_failed',
      'format',
    );
  });

  it('opens the default store in $CORVID_HOME', async () => {
    const home = tempDir();
    const store = await SecretStore.openDefault({ CORVID_HOME: home });
    expect(store.keySource).toBe('file');
    expect(existsSync(join(home, 'secret.key'))).toBe(true);
    expect(store.secretsDir).toBe(join(home, 'secrets'));
  });

  it('lets two processes update one namespace without losing writes', async () => {
    const dir = tempDir();
    await SecretStore.open({ dir, env: {} });
    const entry = fileURLToPath(new URL('../../dist/secrets/index.js', import.meta.url));
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first (npm test does it)`);
    const script = `const { SecretStore } = await import(${JSON.stringify(entry)});
      const s = await SecretStore.open({ dir: ${JSON.stringify(dir)}, env: {} });
      for (let i = 0; i < 15; i++) await s.set('shared', process.argv[1] + i, i);`;
    const run = (w: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, w], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(err))));
      });
    await Promise.all([run('a'), run('b')]);
    const store = await SecretStore.open({ dir, env: {} });
    expect((await store.list('shared')).length).toBe(30);
  }, 30_000);
});
