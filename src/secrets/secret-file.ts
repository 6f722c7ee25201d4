import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { SecretStoreError } from '../errors/secret-store-error.js';
import type { SecretKey } from './secret-key.js';

/** What a namespace file holds once decrypted. */
export interface SecretEntries {
  [name: string]: { value: unknown; updatedAt: number; expiresAt?: number };
}

interface Envelope {
  format: 'corvid-secrets';
  version: 1;
  algorithm: 'aes-256-gcm';
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

/** Additional authenticated data: binds a file to its namespace (a file moved to another name fails). */
const aad = (namespace: string) => Buffer.from(`corvid-secrets:v1:${namespace}`, 'utf8');

/** Encrypts a namespace's entries with AES-256-GCM (fresh 96-bit IV each time). */
export function seal(key: SecretKey, namespace: string, entries: SecretEntries): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(namespace));
  const data = Buffer.concat([cipher.update(JSON.stringify({ namespace, entries }), 'utf8'), cipher.final()]);
  const envelope: Envelope = {
    format: 'corvid-secrets',
    version: 1,
    algorithm: 'aes-256-gcm',
    keyId: key.id,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** Decrypts a namespace file; anything but the exact data written with this key is an error, never garbage. */
export function unseal(key: SecretKey, namespace: string, text: string, file: string): SecretEntries {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch (err) {
    throw new SecretStoreError(`${file} is not a Corvid secrets file (it is not JSON; damaged?)`, {
      kind: 'decrypt_failed',
      file,
      cause: err,
    });
  }
  if (envelope?.format !== 'corvid-secrets' || envelope.algorithm !== 'aes-256-gcm' || typeof envelope.data !== 'string') {
    throw new SecretStoreError(`${file} is not a Corvid secrets file (unknown format)`, { kind: 'decrypt_failed', file });
  }
  if (envelope.version !== 1) {
    throw new SecretStoreError(`${file} was written by a newer Corvid (secrets format ${String(envelope.version)}); upgrade to read it`, {
      kind: 'decrypt_failed',
      file,
    });
  }
  if (envelope.keyId !== key.id) {
    throw new SecretStoreError(
      `${file} was encrypted with a different key (key id ${String(envelope.keyId)}; the current key, from ${describeSource(key)}, has id ${key.id}). ` +
        'Set CORVID_SECRET_KEY to the key that wrote it, or restore the key file.',
      { kind: 'decrypt_failed', file },
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(envelope.iv, 'base64'));
    decipher.setAAD(aad(namespace));
    decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(plain) as { namespace: string; entries: SecretEntries };
    if (parsed.namespace !== namespace) throw new Error('namespace mismatch');
    return parsed.entries;
  } catch (err) {
    throw new SecretStoreError(
      `${file} failed its integrity check: it was modified, damaged, or belongs to another namespace. It was left as is.`,
      {
        kind: 'decrypt_failed',
        file,
        cause: err,
      },
    );
  }
}

/** Where a key came from, as messages name it. */
export function describeSource(key: SecretKey): string {
  return key.source === 'env' ? 'CORVID_SECRET_KEY' : key.source === 'option' ? 'the key option' : 'the key file';
}

/** Reads a file, undefined when it does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretStoreError(`Cannot read ${file}: ${(err as Error).message}`, { kind: 'io', file, cause: err });
  }
}

/**
 * Writes a file atomically with mode 0600: a temporary file in the same directory, flushed to
 * disk, then renamed over the target, so readers see the old content or the new, never a part.
 */
export async function writeAtomic(file: string, content: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw new SecretStoreError(`Cannot write ${file}: ${(err as Error).message}`, { kind: 'io', file, cause: err });
  }
  const d = await open(dir, 'r').catch(() => undefined);
  if (d)
    await d
      .sync()
      .catch(() => undefined)
      .finally(() => d.close());
}

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 10_000;

/**
 * Runs `fn` holding `<file>.lock` (created exclusively), so processes updating the same namespace
 * take turns instead of losing each other's changes. A lock older than 30 s is taken as stale.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new SecretStoreError(`Cannot lock ${file}: ${(err as Error).message}`, { kind: 'io', file, cause: err });
      }
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) await rm(lock, { force: true });
      else if (Date.now() > deadline)
        throw new SecretStoreError(`${file} stayed locked by another process for ${LOCK_WAIT_MS / 1000} s (${lock})`, { kind: 'io', file });
      else await new Promise((r) => setTimeout(r, delay));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}
