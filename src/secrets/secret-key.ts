import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { SecretStoreError } from '../errors/secret-store-error.js';

/** A 32-byte AES-256 key and where it came from. */
export interface SecretKey {
  key: Buffer;
  /** A fingerprint stored with encrypted data, to tell "wrong key" from "tampered". */
  id: string;
  source: 'option' | 'env' | 'file';
}

/** Parses a key given as 64 hex characters or base64 / base64url of 32 bytes; undefined if it is neither. */
export function parseKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) {
    const b = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

/** The fingerprint of a key (an HMAC of a constant: reveals nothing about the key). */
export function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('corvid-secret-key-id').digest('hex').slice(0, 16);
}

const make = (key: Buffer, source: SecretKey['source']): SecretKey => ({ key, id: keyId(key), source });

async function hasEncryptedData(secretsDir: string): Promise<boolean> {
  try {
    return (await readdir(secretsDir)).some((f) => f.endsWith('.json'));
  } catch {
    return false;
  }
}

/**
 * The key: `explicit` (an option), else `CORVID_SECRET_KEY`, else the key file, created with mode
 * 0600 when missing. A missing key file is only generated when no encrypted data exists yet: a
 * new key could never read old secrets, so that case is an error instead.
 */
export async function loadKey(options: {
  explicit?: string | Uint8Array;
  envValue?: string;
  keyFile: string;
  secretsDir: string;
}): Promise<SecretKey> {
  if (options.explicit !== undefined) {
    const key = typeof options.explicit === 'string' ? parseKey(options.explicit) : Buffer.from(options.explicit);
    if (!key || key.length !== 32)
      throw new SecretStoreError('The secret key must be 32 bytes (64 hex characters or base64)', { kind: 'key_invalid' });
    return make(key, 'option');
  }
  if (options.envValue !== undefined && options.envValue.trim() !== '') {
    const key = parseKey(options.envValue);
    if (!key)
      throw new SecretStoreError('CORVID_SECRET_KEY must be 32 bytes, written as 64 hex characters or as base64 (44 characters)', {
        kind: 'key_invalid',
      });
    return make(key, 'env');
  }
  const file = options.keyFile;
  const existing = await readKeyFile(file);
  if (existing) return make(existing, 'file');
  if (await hasEncryptedData(options.secretsDir)) {
    throw new SecretStoreError(
      `Encrypted secrets exist in ${options.secretsDir} but their key is missing: set CORVID_SECRET_KEY to the key that wrote them, or restore ${file}. ` +
        'No new key was generated, so nothing was overwritten.',
      { kind: 'key_missing', file },
    );
  }
  const key = randomBytes(32);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    return make(key, 'file');
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = await readKeyFile(file);
      if (theirs) return make(theirs, 'file');
    }
    throw new SecretStoreError(`Cannot create the secret key file ${file}: ${(err as Error).message}`, { kind: 'io', file, cause: err });
  }
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretStoreError(`Cannot read the secret key file ${file}: ${(err as Error).message}`, { kind: 'io', file, cause: err });
  }
  const key = parseKey(text);
  if (!key)
    throw new SecretStoreError(`The secret key file ${file} does not hold a 32-byte key (base64 or hex)`, { kind: 'key_invalid', file });
  return key;
}
